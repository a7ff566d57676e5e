let f = func (x : Nat) : Text { debug_show x };
let g : Nat -> Nat = f;
g 3
