func f(t : Text) : Nat {
  switch t {
    case 1 { 1 };
    case _ { 0 };
  }
};
f("a")
