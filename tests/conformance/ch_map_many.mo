// A Map of a thousand entries: the B-tree splits, every key found, keys in order.
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
let m = Map.empty<Nat, Nat>();
var i = 0;
while (i < 1000) { Map.add(m, Nat.compare, (i * 7919) % 1000, i); i += 1 };
var ok = true;
var prev = 0;
var first = true;
for ((k, _) in Map.entries(m)) { if (not first and k <= prev) ok := false; prev := k; first := false };
Debug.print(debug_show (Map.size(m), ok, Map.get(m, Nat.compare, 999)));
