let f : Nat -> Nat = func (x : Nat) : Text { debug_show x };
f 1
