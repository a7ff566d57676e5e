import Debug "mo:core/Debug";
let x : Nat16 = 3;
Debug.print(debug_show (x << 9));
Debug.print(debug_show (x >> 17));
