// A script's Map over three levels of B-tree nodes: splits of internal nodes, then
// deletions that borrow from and merge internal siblings, as core's algorithm does.
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";

let m = Map.empty<Nat, Nat>();
for (i in Nat.range(0, 1100)) { Map.add(m, Nat.compare, i, 0) };
Debug.print(debug_show m);
var k = 0;
for (i in Nat.range(0, 500)) { k := (k + 389) % 1100; ignore Map.delete(m, Nat.compare, k) };
Debug.print(debug_show m);
for (i in Nat.range(0, 300)) { ignore Map.delete(m, Nat.compare, i) };
Debug.print(debug_show m);
for (i in Nat.range(0, 300)) { ignore Map.delete(m, Nat.compare, 1099 - i) };
Debug.print(debug_show m);
