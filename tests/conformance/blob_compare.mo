import Debug "mo:core/Debug";
let a : Blob = "\01\02";
let b : Blob = "\01\03";
Debug.print(debug_show (a < b, a == a, a.size()));
