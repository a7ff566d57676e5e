import Debug "mo:core/Debug";
let r = { a : Int = 3; b : Nat8 = 7 };
Debug.print(debug_show r);
