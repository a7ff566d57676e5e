// A bit position is converted to the value's type first (core: `Prim.natToNat16(p)`), so one
// beyond it traps there; within it, it counts modulo the width.
import Nat16 "mo:core/Nat16";
import Debug "mo:core/Debug";
Debug.print(debug_show (Nat16.bitset(0, 17), Nat16.bittest(2, 65_535)));
Debug.print(debug_show (Nat16.bitset(0, 65_536)));
