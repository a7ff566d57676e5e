let f : (Nat, Nat) -> Nat = func (a : Nat) : Nat { a };
f(1, 2)
