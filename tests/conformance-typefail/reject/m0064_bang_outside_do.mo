let o : ?Nat = ?3;
let n = o!;
n
