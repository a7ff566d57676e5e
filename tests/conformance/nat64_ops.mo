import Debug "mo:core/Debug";
let x : Nat64 = 18446744073709551615;
Debug.print(debug_show (x));
Debug.print(debug_show (x -% 1));
Debug.print(debug_show (x +% 1));
Debug.print(debug_show (x / 2));
Debug.print(debug_show (x >> 60));
Debug.print(debug_show (x << 1));
