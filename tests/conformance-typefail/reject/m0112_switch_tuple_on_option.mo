let o : ?Nat = ?1;
switch o {
  case (a, b) { 0 };
}
