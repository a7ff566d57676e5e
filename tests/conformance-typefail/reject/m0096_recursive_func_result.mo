func fact(n : Nat) : Nat {
  if (n == 0) { let one = "1"; one } else { n * fact(n - 1) }
};
fact(5)
