// Arithmetic checked at Int is computed at Int wherever the expected type comes from: an
// explicit type argument, a parameter, a record field, an array element, a method's
// parameter. `n - 120` with `n : Nat` does not underflow there (moc: -115).
import Debug "mo:core/Debug";
let n : Nat = 5;
func pick<A>(c : Bool, a : A, b : A) : A { if c a else b };
func id(x : Int) : Int { x };
func pair(p : (Int, Nat)) : Int { p.0 };
let r : { a : Int } = { a = n - 120 };
let xs : [Int] = [n - 6, n * 2];
object o { public func neg(x : Int) : Int { -x } };
Debug.print(debug_show (pick<Int>(true, "hello".size() - 120, 0)));
Debug.print(debug_show (id(n - 10), pair((n - 9, 1)), r, xs, o.neg(n - 8)));
Debug.print(debug_show (pick<Int>(false, 0, (label l : Nat { if (n > 9) { break l 1 }; 2 }) - n)));
