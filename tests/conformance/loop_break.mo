import Debug "mo:core/Debug";
var i = 0;
label l loop { i += 1; if (i == 7) break l };
Debug.print(debug_show i);
