let a : Int = 10;
let b : Int = 3;
let q : Nat = a / b;
q
