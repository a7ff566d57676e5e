let f = 1.5;
let g = 2.5;
f | g
