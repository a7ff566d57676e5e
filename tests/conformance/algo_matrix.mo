import Debug "mo:core/Debug";
import Array "mo:core/Array";
let n = 3;
let m = Array.tabulate<[Nat]>(n, func i = Array.tabulate<Nat>(n, func j = i * n + j));
var tr = 0;
for (i in m.keys()) { tr += m[i][i] };
Debug.print(debug_show (m, tr));
