import Debug "mo:core/Debug";
let x : Nat16 = 60000;
Debug.print(debug_show (x + 1));
Debug.print(debug_show (x *% 1000));
Debug.print(debug_show (x -% 60000));
Debug.print(debug_show (x ** 1));
