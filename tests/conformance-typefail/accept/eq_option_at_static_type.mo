type K = { k : Nat };
let a : ?K = ?{ k = 1; note = "a" };
let b : ?K = ?{ k = 1; note = "b" };
a == b
