import Debug "mo:core/Debug";
let x : Nat64 = 4294967296;
Debug.print(debug_show (x *% x));
ignore (x * x);
