let n : Nat = null;
n
