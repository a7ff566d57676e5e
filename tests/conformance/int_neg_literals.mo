import Debug "mo:core/Debug";
let a = -5;
let b : Int = -0;
Debug.print(debug_show (a, b, -a, a * a));
