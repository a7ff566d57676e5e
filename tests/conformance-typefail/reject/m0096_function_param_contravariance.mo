let f = func (x : Nat) : Nat { x + 1 };
let g : Int -> Nat = f;
g(-1)
