import Debug "mo:core/Debug";
let x : Int16 = -32768;
let m : Int16 = -1;
Debug.print(debug_show (x / 2));
ignore (x / m);
