let xs = [1, 2, 3];
let ys : [var Nat] = xs;
ys
