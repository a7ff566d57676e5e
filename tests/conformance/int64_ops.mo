import Debug "mo:core/Debug";
let x : Int64 = -9223372036854775807;
Debug.print(debug_show (x));
Debug.print(debug_show (x + 1));
Debug.print(debug_show (x -% 1));
Debug.print(debug_show (x * -1));
