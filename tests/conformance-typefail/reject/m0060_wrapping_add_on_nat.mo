let n : Nat = 5;
n +% 1
