import Debug "mo:core/Debug";
let t = "abc";
let s = t.size;
Debug.print(debug_show s())
