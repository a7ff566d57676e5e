func f(p : (Nat, Nat)) : Nat {
  switch p {
    case (x, y, z) { x };
  }
};
f((1, 2))
