let a = (1, 2);
let b = (1, 3);
a < b
