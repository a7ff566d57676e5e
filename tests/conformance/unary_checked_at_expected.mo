// moc checks the operand of a unary operator at the expected type when the operator is
// defined on it: `-(1 - n)` at Int subtracts at Int (no Nat underflow), and a negative
// literal inside a label's body typed Int is an Int.
import Debug "mo:core/Debug";
let i : Nat = 3;
let r : Int = -(1 - i);
let q = label l : Int { if (i > 100) { break l 0 }; (-(-104 - i)) };
let f : Float = -(2.5);
let w : Int8 = -(3 - 5);
let p : Int = +(2 - i);
Debug.print(debug_show (r, q, f, w, p));
