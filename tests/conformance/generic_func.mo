import Debug "mo:core/Debug";
func id<T>(x : T) : T { x };
func pair<A, B>(a : A, b : B) : (A, B) { (a, b) };
Debug.print(debug_show (id<Nat>(3), id("x"), pair(1, true)));
