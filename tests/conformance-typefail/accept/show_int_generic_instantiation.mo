import Debug "mo:core/Debug";
func id<T>(x : T) : T { x };
let a = id<Int>(5);
let b : ?Int = ?4;
Debug.print(debug_show (a, b))
