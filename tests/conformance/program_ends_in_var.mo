// a program whose last declaration is a `var`: its value is `()`
import Debug "mo:core/Debug";
var total = 0;
for (i in [1, 2, 3].vals()) { total += i };
Debug.print(debug_show total);
var last = total * 2;
