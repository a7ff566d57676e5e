import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
var f = 1;
for (i in Nat.rangeInclusive(1, 40)) { f *= i };
Debug.print(debug_show f);
