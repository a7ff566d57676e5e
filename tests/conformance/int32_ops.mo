import Debug "mo:core/Debug";
let x : Int32 = -2147483648;
Debug.print(debug_show (x));
Debug.print(debug_show (x +% 1));
Debug.print(debug_show (x - 1));
Debug.print(debug_show (x >> 4));
Debug.print(debug_show (x << 1));
