import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
var s = 0;
for (i in Nat.range(0, 10)) { s += i };
Debug.print(debug_show s);
for (i in Nat.rangeInclusive(3, 5)) { Debug.print(debug_show i) };
