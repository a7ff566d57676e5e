import Debug "mo:core/Debug";
// moc's interpreter compares values of type `Any` or of a type parameter as equal
func same<T>(a : T, b : T) : Bool = a == b;
Debug.print(debug_show (same<Nat>(1, 2), same("a", "b")));
let x : Any = 1;
let y : Any = "two";
Debug.print(debug_show (x == y, x != y));
func eqNat(a : Nat, b : Nat) : Bool = a == b;
Debug.print(debug_show (eqNat(3, 3), eqNat(3, 4)));
