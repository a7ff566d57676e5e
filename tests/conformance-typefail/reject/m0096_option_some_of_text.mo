let t = "x";
let o : ?Nat = ?t;
o
