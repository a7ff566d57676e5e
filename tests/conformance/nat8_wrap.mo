import Debug "mo:core/Debug";
let x : Nat8 = 200;
Debug.print(debug_show (x +% 100));
Debug.print(debug_show (x *% 3));
Debug.print(debug_show ((0 : Nat8) -% 1));
Debug.print(debug_show (x **% 2));
