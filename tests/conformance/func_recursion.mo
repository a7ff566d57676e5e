import Debug "mo:core/Debug";
func fact(n : Nat) : Nat { if (n == 0) 1 else n * fact(n - 1) };
Debug.print(debug_show (fact(5), fact(20), fact(30)));
