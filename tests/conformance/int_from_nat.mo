import Debug "mo:core/Debug";
let x : Int = 5;
Debug.print(debug_show (x));
Debug.print(debug_show (x - 10));
Debug.print(debug_show (-x));
Debug.print(debug_show (x + 1));
