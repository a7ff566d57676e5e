import Debug "mo:core/Debug";
let x : Nat8 = 200;
Debug.print(debug_show (x + 50));
Debug.print(debug_show (x + 56));
