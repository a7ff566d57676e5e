import Debug "mo:core/Debug";
let x : Int8 = 100;
Debug.print(debug_show (x + 27));
Debug.print(debug_show (x + 28));
