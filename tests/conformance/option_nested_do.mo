import Debug "mo:core/Debug";
func g(x : ?Nat, y : ?Nat) : ?Nat { do ? { let s = x! + y!; s * 2 } };
Debug.print(debug_show (g(?1, ?2), g(null, ?2), g(?1, null)));
