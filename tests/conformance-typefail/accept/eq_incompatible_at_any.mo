import Debug "mo:core/Debug";
let a = { x = 1 };
let b = "x";
Debug.print(debug_show (a == b))
