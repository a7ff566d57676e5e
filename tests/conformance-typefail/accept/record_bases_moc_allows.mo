import Debug "mo:core/Debug";
let a = { name = "a"; x = 1 };
let b = { name = "b"; y = 2 };
let c = { a and b with name = "c" };
let v = { var count = 1; tag = "v" };
let w = { v with count = 5 };
Debug.print(debug_show (c, w))
