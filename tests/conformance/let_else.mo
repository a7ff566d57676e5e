import Debug "mo:core/Debug";
func f(o : ?Nat) : Nat { let ?x = o else { return 0 }; x + 1 };
Debug.print(debug_show (f(?4), f(null)));
