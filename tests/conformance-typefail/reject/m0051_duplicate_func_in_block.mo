do {
  func f() : Nat { 1 };
  func f() : Nat { 2 };
  f()
}
