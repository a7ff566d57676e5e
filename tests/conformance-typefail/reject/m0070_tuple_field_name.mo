let p = (1, 2);
p.x
