let a = b + 1;
let b = 2;
a
