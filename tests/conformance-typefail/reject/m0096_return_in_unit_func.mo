func check(n : Nat) {
  if (n > 3) { return n };
};
check(4)
