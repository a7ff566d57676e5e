// two objects exchanging `public var` values through a helper taking their type
import Debug "mo:core/Debug";
type Cell = { var v : Nat };
func swap(a : Cell, b : Cell) { let t = a.v; a.v := b.v; b.v := t };
object x { public var v = 1; public func get() : Nat { v } };
object y { public var v = 2; public func get() : Nat { v } };
swap(x, y);
Debug.print(debug_show (x.get(), y.get(), x.v, y.v));
let r = { var v = 9 };
swap(r, x);
Debug.print(debug_show (r.v, x.get()));
