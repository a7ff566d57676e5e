import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
var s = "";
var i = 0;
while (i < 10) { s #= Nat.toText(i); i += 1 };
Debug.print(s);
Debug.print(debug_show s.size());
