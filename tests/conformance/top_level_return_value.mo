import Debug "mo:core/Debug";
let a = 5;
let b = a * 2;
Debug.print(debug_show (a, b));
