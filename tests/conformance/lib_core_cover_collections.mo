// mo:core Map and List functions not used elsewhere.
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import List "mo:core/List";
import Nat "mo:core/Nat";
import Text "mo:core/Text";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

let m = Map.fromIter<Text, Nat>([("b", 2), ("a", 1), ("c", 3)].vals(), Text.compare);
show("fromIter", debug_show (Map.size(m)));
show("toArray", debug_show (Map.toArray(m)));
Map.add(m, Text.compare, "aa", 11);
show("toArray2", debug_show (Map.toArray(m)));

let l = List.fromArray<Nat>([5, 6, 7]);
show("List.fromArray", debug_show (List.size(l)));
show("List.at", debug_show (List.at(l, 0), List.at(l, 2)));
