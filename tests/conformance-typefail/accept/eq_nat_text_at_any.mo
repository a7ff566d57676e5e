import Debug "mo:core/Debug";
let n = 3;
let t = "3";
let same : Bool = n == t;
Debug.print(debug_show same)
