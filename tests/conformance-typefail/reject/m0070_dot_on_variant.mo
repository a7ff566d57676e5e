type V = { #a : { x : Nat } };
let v : V = #a { x = 1 };
v.x
