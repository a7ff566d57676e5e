let p = (1, "a");
p.2
