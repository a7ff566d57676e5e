import Debug "mo:core/Debug";
let x : Nat8 = 100;
Debug.print(debug_show (x + 1));
Debug.print(debug_show (x * 2));
Debug.print(debug_show (x / 3));
Debug.print(debug_show (x % 7));
Debug.print(debug_show (x - 5));
