let a : Int = 5;
let b : Nat = 3;
let c : Nat = a - b;
c
