let r = { size = 3 };
r.size()
