import Debug "mo:core/Debug";
var total = 0;
var i = 0;
while (i < 1000) { total += i; i += 1 };
Debug.print(debug_show total);
