let b : Nat8 = 256;
b
