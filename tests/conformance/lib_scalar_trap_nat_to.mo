// Nat.toNat16 out of range: `Prim.natToNat16`'s trap.
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";
Debug.print(debug_show (Nat.toNat16(65_535)));
Debug.print(debug_show (Nat.toNat16(65_536)));
