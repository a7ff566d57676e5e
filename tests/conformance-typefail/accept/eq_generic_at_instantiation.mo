import Debug "mo:core/Debug";
type K = { id : Nat };
func same<T>(a : T, b : T, eq : (T, T) -> Bool) : Bool { eq(a, b) };
let x : K = { id = 1; note = "p" };
let y : K = { id = 1; note = "q" };
Debug.print(debug_show (same<K>(x, y, func (a, b) = a == b)))
