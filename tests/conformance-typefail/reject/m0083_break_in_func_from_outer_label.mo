label outer : Nat {
  func inner() : Nat { break outer 1 };
  inner()
}
