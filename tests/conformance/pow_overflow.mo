import Debug "mo:core/Debug";
let b : Nat8 = 2;
Debug.print(debug_show (b ** 7));
ignore (b ** 8);
