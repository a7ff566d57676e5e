type P = { x : Nat };
func f(p : P) : Nat {
  switch p {
    case ({ y }) { y };
  }
};
f({ x = 1 })
