func f(n : Nat) : Nat {
  switch n {
    case (?m) { m };
    case _ { 0 };
  }
};
f(1)
