let f = func x = x + 1;
f 1
