import Debug "mo:core/Debug";
var x : Nat64 = 1;
var i = 0;
while (i < 70) { x *%= 3; i += 1 };
Debug.print(debug_show x);
