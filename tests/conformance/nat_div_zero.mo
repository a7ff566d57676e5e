import Debug "mo:core/Debug";
let z : Nat = 0;
Debug.print(debug_show (10 / (z + 1)));
ignore (10 / z);
