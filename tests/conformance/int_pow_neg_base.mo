import Debug "mo:core/Debug";
let b : Int = -3;
Debug.print(debug_show (b ** 3, b ** 4, b ** 0));
