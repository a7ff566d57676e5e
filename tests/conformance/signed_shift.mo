import Debug "mo:core/Debug";
let x : Int8 = -64;
Debug.print(debug_show (x >> 1));
Debug.print(debug_show (x << 1));
Debug.print(debug_show (x <<> 1));
Debug.print(debug_show (^x));
