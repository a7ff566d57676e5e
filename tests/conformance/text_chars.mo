import Debug "mo:core/Debug";
var n = 0;
for (c in "héllo".chars()) { Debug.print(debug_show c); n += 1 };
Debug.print(debug_show n);
