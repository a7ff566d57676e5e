import Debug "mo:core/Debug";
func f(x : Int) : Int { x };
Debug.print(debug_show (f(5), f(-5)));
func g() : Int { 3 };
Debug.print(debug_show (g()));
