func f(t : Text) : Nat {
  switch t {
    case ({ size }) { 1 };
  }
};
f("a")
