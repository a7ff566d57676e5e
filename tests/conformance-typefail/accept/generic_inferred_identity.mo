import Debug "mo:core/Debug";
func id<T>(x : T) : T { x };
func twice<T>(f : T -> T, x : T) : T { f(f x) };
let n = id(4);
let t = id("four");
Debug.print(debug_show (n + 1, t, twice(func (k : Nat) : Nat { k * 3 }, 2)))
