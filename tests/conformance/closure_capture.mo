import Debug "mo:core/Debug";
let base = 10;
func adder(n : Nat) : Nat -> Nat { func (x : Nat) : Nat { x + n + base } };
let add5 = adder(5);
Debug.print(debug_show (add5(1), adder(0)(0)));
