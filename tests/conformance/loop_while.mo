import Debug "mo:core/Debug";
var i = 0;
loop { i += 1 } while (i < 5);
Debug.print(debug_show i);
