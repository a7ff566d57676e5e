let a = { x = 1 };
let b = "x";
a == b
