import Debug "mo:core/Debug";
let r = { var a = 1; b = 2 };
Debug.print(debug_show r);
let e : [var Nat] = [var];
Debug.print(debug_show (e, [var 1, 2]));
