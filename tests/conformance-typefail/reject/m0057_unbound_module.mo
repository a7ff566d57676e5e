let n = Nat.toText(5);
n
