func f(x : Nat) : Nat { x };
func g(x : Nat) : Nat { x + 1 };
f == g
