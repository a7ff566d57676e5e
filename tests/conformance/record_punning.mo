import Debug "mo:core/Debug";
let a = 1; let b = "two";
let r = { a; b };
Debug.print(debug_show r);
