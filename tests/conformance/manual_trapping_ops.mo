// Manual, "Numbers": checked arithmetic traps on overflow of a fixed width.
import Debug "mo:core/Debug";
let a : Nat8 = 200;
Debug.print(debug_show (a + 55));
Debug.print("before");
let b : Nat8 = a + 56;
Debug.print("never");
