// Int64.toInt8 narrows one halving at a time (core: int16ToInt8(int32ToInt16(int64ToInt32 x))):
// -40000 fits Int32 but not Int16, so the trap is int32ToInt16's.
import Int64 "mo:core/Int64";
import Debug "mo:core/Debug";
Debug.print(debug_show (Int64.toInt8(-100), Int64.toInt16(-40), Int64.toInt32(-40_000)));
Debug.print(debug_show (Int64.toInt8(-40_000)));
