import Debug "mo:core/Debug";
func sum(n : Nat) : Nat { if (n == 0) 0 else n + sum(n - 1) };
Debug.print(debug_show (sum(500)));
