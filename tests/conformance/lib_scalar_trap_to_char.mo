// Nat32.toChar of a surrogate: `Prim.nat32ToChar`'s trap.
import Nat32 "mo:core/Nat32";
import Debug "mo:core/Debug";
Debug.print(debug_show (Nat32.toChar(0x1F600), Nat32.toChar(0xD7FF)));
Debug.print(debug_show (Nat32.toChar(0xDFFF)));
