type P = { x : Nat };
let p : P = { var x = 1 };
p.x
