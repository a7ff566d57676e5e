let f = func _ = 1;
f
