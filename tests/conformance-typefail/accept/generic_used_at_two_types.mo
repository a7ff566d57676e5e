import Debug "mo:core/Debug";
func pair<A, B>(a : A, b : B) : (B, A) { (b, a) };
let p = pair(1, "one");
let q = pair(true, -2);
Debug.print(debug_show (p, q))
