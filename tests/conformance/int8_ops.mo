import Debug "mo:core/Debug";
let x : Int8 = 100; let y : Int8 = -128 + 1;
Debug.print(debug_show (x + 1));
Debug.print(debug_show (x -% 100));
Debug.print(debug_show (y));
Debug.print(debug_show (-y));
Debug.print(debug_show (x / 3));
Debug.print(debug_show (y % 3));
