func f(b : Nat8) : Nat8 {
  switch b {
    case (-1) { 0 };
    case _ { b };
  }
};
f(3)
