let m : ?Nat = ?5;
let n : Nat = m;
n + 1
