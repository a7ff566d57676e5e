let a = [var 1, 2, 3];
let b : [Nat] = a;
b[0]
