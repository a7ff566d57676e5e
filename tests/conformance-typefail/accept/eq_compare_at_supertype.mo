import Debug "mo:core/Debug";
type Base = { id : Nat };
func same(a : Base, b : Base) : Bool { a == b };
let x = { id = 1; extra = "a" };
let y = { id = 1; extra = "b" };
Debug.print(debug_show (same(x, y), x == y))
