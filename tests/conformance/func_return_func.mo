import Debug "mo:core/Debug";
func mul(a : Nat) : Nat -> Nat = func b = a * b;
Debug.print(debug_show (mul(3)(4)));
