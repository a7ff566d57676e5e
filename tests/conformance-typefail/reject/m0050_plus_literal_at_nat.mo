let n : Nat = +1;
n
