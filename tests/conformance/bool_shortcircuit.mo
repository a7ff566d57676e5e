import Debug "mo:core/Debug";
func t() : Bool { Debug.print("t"); true };
func f() : Bool { Debug.print("f"); false };
Debug.print(debug_show (f() and t()));
Debug.print(debug_show (t() or f()));
Debug.print(debug_show (t() and f()));
