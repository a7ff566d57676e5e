import Debug "mo:core/Debug";
func unwrap(?x : ?Nat) : Nat { x };
Debug.print(debug_show unwrap(?1))
