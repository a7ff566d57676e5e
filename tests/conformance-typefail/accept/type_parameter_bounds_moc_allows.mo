import Debug "mo:core/Debug";
func biggest<T <: Int>(a : T, b : T) : T { if (a > b) a else b };
func nameOf<R <: { name : Text }>(r : R) : Text { r.name };
func isOne<T <: Nat>(x : T) : Bool { switch x { case 1 true; case _ false } };
func id<T>(x : T) : T { let y : T = x; y };
Debug.print(debug_show (biggest(3, 7), biggest<Int>(-1, 2), nameOf({ name = "a"; id = 1 }), nameOf<{ name : Text }>({ name = "b" }), isOne(1), id(5)))
