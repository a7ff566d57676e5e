let a : ?Nat = ?1;
let b : ?Nat = null;
a < b
