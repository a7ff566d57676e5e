import Debug "mo:core/Debug";
var x = 0.0;
for (i in [1, 2, 3, 4].vals()) { x += 0.1 };
Debug.print(debug_show x);
