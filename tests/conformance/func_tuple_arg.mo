import Debug "mo:core/Debug";
func f(a : Nat, b : Nat) : Nat { a * 10 + b };
let t = (3, 4);
Debug.print(debug_show (f(1, 2), f(t)));
