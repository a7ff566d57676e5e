import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
let m = Map.empty<Text, Int>();
m.add("a", 1);
m.add("b", -2);
Debug.print(debug_show (Iter.toArray(m.entries())))
