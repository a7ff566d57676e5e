import Array "mo:core/Array";
import Map "mo:core/Map";
import Set "mo:core/Set";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Option "mo:core/Option";
import Char "mo:core/Char";
import Debug "mo:core/Debug";
import List "mo:core/List";
import Order "mo:core/Order";

let a = Array.tabulate<Nat>(10, func i = (i * 7) % 10);
Debug.print(debug_show a);
let sorted = Array.sort(a, Nat.compare);
Debug.print(debug_show sorted);
Debug.print(debug_show (Array.filter<Nat>(a, func x = x % 2 == 0)));
Debug.print(debug_show (Array.foldLeft<Nat, Nat>(a, 0, func (acc, x) = acc + x)));
Debug.print(debug_show (Array.flatten<Nat>([[1, 2], [], [3]])));
let m = Map.empty<Text, Nat>();
for (w in Text.split("a b c a b a", #char ' ')) {
  switch (Map.get(m, Text.compare, w)) {
    case null Map.add(m, Text.compare, w, 1);
    case (?n) Map.add(m, Text.compare, w, n + 1);
  }
};
Debug.print(debug_show (Iter.toArray(Map.entries(m))));
Debug.print(debug_show (Map.size(m)));
let s = Set.fromIter<Nat>([3, 1, 2, 3].vals(), Nat.compare);
Debug.print(debug_show (Iter.toArray(Set.values(s))));
Debug.print(Text.join(Iter.map<Nat, Text>(sorted.vals(), Nat.toText), ", "));
Debug.print(debug_show (Nat.fromText("1234"), Nat.fromText("x"), Int.fromText("-42")));
Debug.print(debug_show (Int.abs(-7), Option.get<Nat>(null, 3), Char.toNat32('A')));
Debug.print(Text.toUpper("hello") # " " # Text.toLower("WORLD"));
let l = List.empty<Nat>();
List.add(l, 5); List.add(l, 6);
Debug.print(debug_show (List.toArray(l), List.size(l)));
Debug.print(debug_show (Nat.compare(3, 4), Order.isLess(Nat.compare(3, 4))));
