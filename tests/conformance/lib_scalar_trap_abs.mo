// Int32.abs of the least Int32 traps in core's fromInt (`Prim.intToInt32`).
import Int32 "mo:core/Int32";
import Debug "mo:core/Debug";
Debug.print(debug_show (Int32.abs(-2_147_483_647)));
Debug.print(debug_show (Int32.abs(Int32.minValue)));
