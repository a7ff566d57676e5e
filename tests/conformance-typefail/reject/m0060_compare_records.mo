let a = { x = 1 };
let b = { x = 2 };
a < b
