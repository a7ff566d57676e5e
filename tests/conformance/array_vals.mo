import Debug "mo:core/Debug";
var s = 0;
for (x in [1, 2, 3, 4].vals()) { s += x };
Debug.print(debug_show s);
for (i in [7, 8].keys()) { Debug.print(debug_show i) };
