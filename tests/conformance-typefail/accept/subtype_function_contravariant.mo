import Debug "mo:core/Debug";
import Int "mo:core/Int";
func applyNat(f : Nat -> Int, x : Nat) : Int { f x };
let negate : Int -> Nat = func (i : Int) : Nat { Int.abs(-i) };
Debug.print(debug_show (applyNat(negate, 4)))
