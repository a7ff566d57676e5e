func f(n : Nat) : Nat {
  switch n {
    case (m : Text) { 0 };
  }
};
f(1)
