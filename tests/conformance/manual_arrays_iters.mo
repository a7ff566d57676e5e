// Manual, "Arrays": immutable and mutable arrays, size, vals, keys, indexing traps.
import Debug "mo:core/Debug";
let a = [10, 20, 30];
let m = [var 1, 2, 3];
m[1] := 20;
m[2] += 7;
Debug.print(debug_show (a, m, a.size(), m.size()));
var s = 0;
for (i in a.keys()) { s += i * a[i] };
Debug.print(debug_show s);
for (x in m.vals()) { Debug.print(debug_show x) };
let empty : [Nat] = [];
Debug.print(debug_show (empty, empty.size()));
let nested = [[1], [2, 3], []];
Debug.print(debug_show (nested[1][1], nested.size()));
Debug.print(debug_show a[3]);
