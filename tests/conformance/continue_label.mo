import Debug "mo:core/Debug";
var s = "";
label l for (i in [1, 2, 3, 4, 5].vals()) { if (i % 2 == 0) continue l; s #= debug_show i };
Debug.print(s);
