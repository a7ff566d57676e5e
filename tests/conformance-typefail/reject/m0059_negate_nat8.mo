let b : Nat8 = 3;
-b
