let a = [var 1, 2];
let b = [var 1, 2];
a == b
