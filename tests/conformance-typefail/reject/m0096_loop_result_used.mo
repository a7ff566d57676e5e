var i = 0;
let r : Nat = while (i < 3) { i += 1 };
r
