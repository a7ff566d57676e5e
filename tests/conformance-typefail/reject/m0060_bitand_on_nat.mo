let a : Nat = 12;
a & 4
