let a : Nat8 = 1;
let b : Nat16 = 2;
a + b
