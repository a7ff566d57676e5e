func f(t : Text) : Nat {
  switch t {
    case (#a) { 1 };
    case _ { 0 };
  }
};
f("a")
