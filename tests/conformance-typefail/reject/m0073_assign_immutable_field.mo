let p = { x = 1; y = 2 };
p.x := 3;
p.x
