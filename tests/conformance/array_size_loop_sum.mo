import Debug "mo:core/Debug";
import Array "mo:core/Array";
let xs = Array.tabulate<Nat>(100, func i = i);
var s = 0;
var k = 0;
while (k < xs.size()) { s += xs[k]; k += 1 };
Debug.print(debug_show s);
