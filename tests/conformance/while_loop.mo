import Debug "mo:core/Debug";
var i = 0;
var s = 0;
while (i < 100) { s += i; i += 1 };
Debug.print(debug_show (i, s));
