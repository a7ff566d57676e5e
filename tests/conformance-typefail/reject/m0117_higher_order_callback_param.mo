func apply(f : Nat -> Nat, x : Nat) : Nat { f x };
apply(func (t : Text) : Nat { t.size() }, 3)
