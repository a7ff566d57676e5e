func f(n : Nat) : Nat {
  switch n {
    case "one" { 1 };
    case _ { 0 };
  }
};
f(1)
