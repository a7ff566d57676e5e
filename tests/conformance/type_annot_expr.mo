import Debug "mo:core/Debug";
let a = (5 : Int);
let b = ([1, 2] : [Int]);
let c = (?3 : ?Int);
Debug.print(debug_show (a, b, c));
