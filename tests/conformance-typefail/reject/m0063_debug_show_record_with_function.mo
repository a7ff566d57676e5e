let r = { name = "x"; run = func () {} };
debug_show r
