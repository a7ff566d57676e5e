import Debug "mo:core/Debug";
func neg(n : Nat) : Int { if (n > 5) return n; -n };
Debug.print(debug_show (neg(3), neg(9)));
