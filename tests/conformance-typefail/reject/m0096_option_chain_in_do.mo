let a : ?Nat = ?1;
let b : ?Text = ?"x";
let r : ?Nat = do ? { a! + b! };
r
