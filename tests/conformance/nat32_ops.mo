import Debug "mo:core/Debug";
let x : Nat32 = 4000000000;
Debug.print(debug_show (x + 1));
Debug.print(debug_show (x *% 2));
Debug.print(debug_show (x / 7));
Debug.print(debug_show (x & 0xFF));
Debug.print(debug_show (x | 1));
Debug.print(debug_show (x ^ x));
