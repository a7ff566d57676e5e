// mo:core Map: add, get, remove, size, entries in key order.
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
let m = Map.empty<Nat, Text>();
for (i in [5, 1, 9, 3, 7].vals()) { Map.add(m, Nat.compare, i, debug_show (i * i)) };
Debug.print(debug_show (Map.size(m), Map.get(m, Nat.compare, 9), Map.get(m, Nat.compare, 2)));
Map.remove(m, Nat.compare, 1);
for ((k, v) in Map.entries(m)) { Debug.print(debug_show k # " -> " # v) };
Debug.print(debug_show (Map.containsKey(m, Nat.compare, 5), Map.containsKey(m, Nat.compare, 1)));
