import Debug "mo:core/Debug";
let r = { a = { b = 1; c = 2 }; d = 3 };
let s = { r with a = { r.a with c = 20 } };
Debug.print(debug_show s);
