let n : Nat = 200;
let b : Nat8 = n;
b
