import Debug "mo:core/Debug";
let x : Int16 = 10000;
Debug.print(debug_show (x * 2));
Debug.print(debug_show (x *% 4));
Debug.print(debug_show (-x));
Debug.print(debug_show (x / -7));
