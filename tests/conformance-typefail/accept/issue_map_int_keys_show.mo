import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Int "mo:core/Int";
import Iter "mo:core/Iter";
let m = Map.empty<Int, Text>();
m.add(7, "seven");
m.add(-1, "minus one");
Debug.print(debug_show (Iter.toArray(m.keys())))
