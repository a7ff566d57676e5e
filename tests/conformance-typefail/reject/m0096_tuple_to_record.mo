let p = (1, 2);
let r : { x : Nat; y : Nat } = p;
r.x
