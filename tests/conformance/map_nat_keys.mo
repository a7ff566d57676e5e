import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
let m = Map.empty<Nat, Text>();
for (i in Nat.range(0, 20)) { Map.add(m, Nat.compare, (i * 7) % 20, debug_show i) };
Debug.print(debug_show (Iter.toArray(Map.keys(m))));
Debug.print(debug_show (Map.size(m)));
