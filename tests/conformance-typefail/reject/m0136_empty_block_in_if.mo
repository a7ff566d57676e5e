let n = 1;
let r : Nat = if (n > 0) {} else { 2 };
r
