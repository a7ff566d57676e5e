func f(n : Nat) : Nat {
  switch n {
    case (-1) { 0 };
    case _ { n };
  }
};
f(2)
