import Debug "mo:core/Debug";
var found = (0, 0);
label search for (a in [1, 2, 3].vals()) { for (b in [1, 2, 3].vals()) { if (a * b == 6) { found := (a, b); break search } } };
Debug.print(debug_show found);
