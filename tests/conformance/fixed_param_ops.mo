import Debug "mo:core/Debug";
func mix(a : Nat16, b : Nat16) : Nat16 { (a << 4) ^ b };
Debug.print(debug_show (mix(0x0F0F, 0x00FF), mix(1, 1)));
