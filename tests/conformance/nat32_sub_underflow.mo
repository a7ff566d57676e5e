import Debug "mo:core/Debug";
let a : Nat32 = 1;
Debug.print(debug_show (a -% 2));
ignore (a - 2);
