let pair = (1, 2, 3);
let (a, b) : (Nat, Nat) = pair;
a + b
