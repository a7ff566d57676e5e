import Debug "mo:core/Debug";
func f(x : Nat) : Bool { switch x { case (1 or 2 or 3) true; case _ false } };
Debug.print(debug_show (f(2), f(5)));
