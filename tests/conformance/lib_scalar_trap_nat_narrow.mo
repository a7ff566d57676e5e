// Nat32.fromNat64 and Nat16.toNat8 out of range: the trap of the failing primitive.
import Nat64 "mo:core/Nat64";
import Nat32 "mo:core/Nat32";
import Nat16 "mo:core/Nat16";
import Debug "mo:core/Debug";
Debug.print(debug_show (Nat32.fromNat64(4_294_967_295), Nat16.toNat8(255)));
Debug.print(debug_show (Nat16.toNat8(256)));
