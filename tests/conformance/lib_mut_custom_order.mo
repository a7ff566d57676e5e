// Maps and sets ordered by the script's own compare: the order it gives, the keys it calls
// equal, and how many times core's algorithms call it.
import Map "mo:core/Map";
import Set "mo:core/Set";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";
import Order "mo:core/Order";
import Int "mo:core/Int";

var calls = 0;
func byLength(a : Text, b : Text) : Order.Order {
  calls += 1;
  Nat.compare(a.size(), b.size())
};
let m = Map.empty<Text, Nat>();
for (w in ["pear", "fig", "apple", "kiwi", "banana", "plum", "cherry", "date"].vals()) {
  Map.add(m, byLength, w, w.size())
};
Debug.print(debug_show (calls, Map.toArray(m)));
Debug.print(debug_show (Map.get(m, byLength, "abcde"), Map.containsKey(m, byLength, "xyzxyzxyz"), calls));
Debug.print(debug_show m);

type Point = { x : Int; y : Int };
func byXY(a : Point, b : Point) : Order.Order {
  calls += 1;
  switch (Order.isEqual(Nat.compare(Int.abs(a.x), Int.abs(b.x)))) {
    case true Nat.compare(Int.abs(a.y), Int.abs(b.y));
    case false Nat.compare(Int.abs(a.x), Int.abs(b.x))
  }
};
calls := 0;
let s = Set.empty<Point>();
for (i in Nat.range(0, 60)) { Set.add(s, byXY, { x = (i * 7) % 11; y = -((i * 3) % 5) }) };
Debug.print(debug_show (Set.size(s), calls));
Debug.print(debug_show Set.toArray(s));
for (i in Nat.range(0, 30)) { ignore Set.delete(s, byXY, { x = i % 11; y = i % 5 }) };
Debug.print(debug_show (Set.size(s), calls, Set.min(s), Set.max(s)));
Debug.print(debug_show s);

func desc(a : Nat, b : Nat) : Order.Order = Nat.compare(b, a);
let d = Map.fromIter<Nat, Text>(Iter.map<Nat, (Nat, Text)>(Nat.range(0, 40), func i = ((i * 17) % 41, Nat.toText(i))), desc);
Debug.print(debug_show (Iter.toArray(Map.keys(d)), Map.minEntry(d), Map.maxEntry(d)));
Debug.print(debug_show (Iter.toArray(Map.entriesFrom(d, desc, 20)), Iter.toArray(Map.reverseEntriesFrom(d, desc, 20))));
Debug.print(debug_show d);
