// Tuples: projection, nesting, destructuring in loops and function results.
import Debug "mo:core/Debug";
func divmod(a : Nat, b : Nat) : (Nat, Nat) { (a / b, a % b) };
let (q, r) = divmod(17, 5);
Debug.print(debug_show (q, r, divmod(9, 3).0, divmod(9, 4).1));
let pairs = [("a", 1), ("b", 2), ("c", 3)];
var acc = "";
for ((k, v) in pairs.vals()) { acc #= k # debug_show v };
Debug.print(acc);
let t = ((1, 2), (3, (4, 5)));
Debug.print(debug_show (t.1.1.0, t.0));
