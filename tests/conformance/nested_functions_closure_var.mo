import Debug "mo:core/Debug";
func f() : Nat { var total = 0; let add = func (k : Nat) { total += k }; add(3); add(4); total };
Debug.print(debug_show (f()));
