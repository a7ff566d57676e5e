type P = { x : Nat; y : Nat };
let p : P = { x = 1; y = 2 };
let { x; z } = p;
x
