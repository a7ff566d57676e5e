// Debug.todo() traps where core's Runtime.trap does (moc reports the prelude's position).
import Debug "mo:core/Debug";
func later() : Nat { Debug.todo() };
Debug.print("before");
let n : Nat = later();
Debug.print("not reached")
