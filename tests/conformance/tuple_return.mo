import Debug "mo:core/Debug";
func divmod(a : Nat, b : Nat) : (Nat, Nat) { (a / b, a % b) };
let (q, r) = divmod(17, 5);
Debug.print(debug_show (q, r));
Debug.print(debug_show (divmod(9, 2)));
