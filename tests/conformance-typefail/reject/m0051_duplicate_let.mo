let x = 1;
let y = 2;
let x = 3;
x + y
