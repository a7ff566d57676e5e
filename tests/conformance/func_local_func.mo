import Debug "mo:core/Debug";
func outer(n : Nat) : Nat { func inner(k : Nat) : Nat { k * n }; inner(n) + inner(1) };
Debug.print(debug_show (outer(4)));
