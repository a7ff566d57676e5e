let r = { x = 1; y = 2 };
let (a, b) = r;
a + b
