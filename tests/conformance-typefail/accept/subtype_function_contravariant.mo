import Int "mo:core/Int";
func applyNat(f : Nat -> Int, x : Nat) : Int { f x };
let negate : Int -> Nat = func (i : Int) : Nat { Int.abs(-i) };
applyNat(negate, 4)
