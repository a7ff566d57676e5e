// later declarations are visible in function bodies, and where an annotation gives the type
import Debug "mo:core/Debug";
func f() : Nat { b + 1 };
let g = func () : Nat { b * 2 };
let d = do { let b = 10; b };
let b = 2;
Debug.print(debug_show (f(), g(), d))
