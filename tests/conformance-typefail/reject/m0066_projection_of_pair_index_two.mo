func pair() : (Nat, Nat) { (1, 2) };
pair().2
