import Debug "mo:core/Debug";
Debug.print("start");
let x = 3;
assert (x > 5);
Debug.print("unreached");
