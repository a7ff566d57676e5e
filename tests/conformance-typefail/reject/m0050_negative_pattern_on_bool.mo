func f(b : Bool) : Nat {
  switch b {
    case (-1) { 0 };
    case _ { 1 };
  }
};
f(true)
