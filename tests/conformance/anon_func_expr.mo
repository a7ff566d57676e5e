import Debug "mo:core/Debug";
let sq = func (x : Nat) : Nat { x * x };
Debug.print(debug_show ([1, 2, 3].size(), sq(9)));
