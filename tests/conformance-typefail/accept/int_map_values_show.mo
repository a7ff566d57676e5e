import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
let m = Map.empty<Nat, Int>();
m.add(1, 10);
m.add(2, -3);
Debug.print(debug_show (Iter.toArray(m.values())))
