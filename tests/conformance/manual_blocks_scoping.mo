// Blocks, shadowing and the value of a block.
import Debug "mo:core/Debug";
let x = 1;
let y = do { let x = 10; x + 1 };
Debug.print(debug_show (x, y));
let z = do { var acc = 0; for (i in [1, 2, 3].vals()) { acc += i }; acc };
Debug.print(debug_show z);
func f() : Nat { let x = 100; do { let x = 200; ignore x }; x };
Debug.print(debug_show f());
let t = if (x > 0) { "pos" } else { "neg" };
Debug.print(t);
