import Debug "mo:core/Debug";
let bytes : [Nat8] = [250, 3, 2];
var s : Nat8 = 0;
for (b in bytes.vals()) { s +%= b };
Debug.print(debug_show s);
