let r = { a = 1 };
r.0
