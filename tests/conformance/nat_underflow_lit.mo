import Debug "mo:core/Debug";
Debug.print("x");
let z : Nat = 0;
ignore (z - 1);
