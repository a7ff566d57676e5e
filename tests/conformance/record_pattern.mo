import Debug "mo:core/Debug";
let p = { x = 3; y = 4 };
let { x; y = yy } = p;
Debug.print(debug_show (x, yy));
switch p { case { x = 3; y } Debug.print("y=" # debug_show y); case _ Debug.print("other") };
