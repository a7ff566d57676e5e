func outer() : Nat {
  func inner() : Text { "x" };
  inner()
};
outer()
