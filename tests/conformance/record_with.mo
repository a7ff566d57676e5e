import Debug "mo:core/Debug";
let r = {a = 1; b = "x"};
let s = { r with b = "y"; c = 3.5 };
Debug.print(debug_show r);
Debug.print(debug_show s);
let t = { r and {d = true} with a = 10 };
Debug.print(debug_show t);
