let n = 5;
let r : Nat = if (n > 3) { 1 };
r
