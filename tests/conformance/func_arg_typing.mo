import Debug "mo:core/Debug";
func f(x : Int) : Int { x };
func g(b : Nat8) : Nat8 { b +% 250 };
func h(x : Float) : Float { x / 2 };
Debug.print(debug_show (f(2 - 3), g(10), h(3), f(7)));
