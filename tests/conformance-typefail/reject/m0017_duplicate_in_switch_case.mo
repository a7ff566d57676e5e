func f(p : (Nat, Nat)) : Nat {
  switch p {
    case (x, x) { x };
  }
};
f((1, 2))
