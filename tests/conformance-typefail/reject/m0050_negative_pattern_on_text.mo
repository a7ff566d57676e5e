func f(t : Text) : Nat {
  switch t {
    case (-1) { 0 };
    case _ { 1 };
  }
};
f("a")
