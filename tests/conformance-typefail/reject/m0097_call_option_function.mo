let f : ?(Nat -> Nat) = ?(func (n : Nat) : Nat { n });
f(1)
