import Debug "mo:core/Debug";
let x : Float = 3;
Debug.print(debug_show (x));
Debug.print(debug_show (x / 2));
Debug.print(debug_show (x * 1.5));
