import Debug "mo:core/Debug";
func find(xs : [Nat], y : Nat) : ?Nat { var i = 0; for (x in xs.vals()) { if (x == y) return ?i; i += 1 }; null };
Debug.print(debug_show (find([4, 5, 6], 6), find([4], 1)));
