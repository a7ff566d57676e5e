let r = { a = 1; b = 2 };
let { a = x; a = y } = r;
x + y
