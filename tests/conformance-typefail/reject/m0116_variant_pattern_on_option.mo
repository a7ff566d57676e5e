let o : ?Nat = null;
switch o {
  case (#none) { 0 };
  case _ { 1 };
}
