let n : Nat = "12";
n
