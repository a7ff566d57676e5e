// a `mixin` declaration runs nothing in a program (only an actor's `include` uses it)
import Debug "mo:core/Debug";

Debug.print("before");
mixin (start : Nat) {
  var count = start;
  Debug.print("never printed");
};
Debug.print("after");
