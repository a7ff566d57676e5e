type A = { a : Nat } and B;
type B = { b : Nat };
let x : A = { a = 1; b = 2 };
x
