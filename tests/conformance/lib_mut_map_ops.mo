// mo:core Map built by the script: core's B-tree (debug_show shows its nodes), changed in
// place and seen through every binding, ordered by the compare given.
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";
import Order "mo:core/Order";
import PureMap "mo:core/pure/Map";

let m = Map.empty<Nat, Text>();
for (i in Nat.range(0, 100)) { Map.add(m, Nat.compare, (i * 37) % 101, Nat.toText(i)) };
Debug.print(debug_show (Map.size(m), Map.isEmpty(m)));
Debug.print(debug_show m);
for (i in Nat.range(0, 60)) { ignore Map.delete(m, Nat.compare, (i * 13) % 101) };
Debug.print(debug_show m);
Debug.print(debug_show Iter.toArray(Map.entriesFrom(m, Nat.compare, 50)));
Debug.print(debug_show Iter.toArray(Map.reverseEntriesFrom(m, Nat.compare, 50)));
Debug.print(debug_show Iter.toArray(Map.reverseEntries(m)));
Debug.print(debug_show (Iter.toArray(Map.keys(m)), Iter.toArray(Map.values(m))));
Debug.print(debug_show (Map.minEntry(m), Map.maxEntry(m), Map.get(m, Nat.compare, 3), Map.containsKey(m, Nat.compare, 4)));

// aliasing: the same map through another name
let b = m;
Map.add(b, Nat.compare, 1000, "x");
Debug.print(debug_show (Map.size(m), Map.get(m, Nat.compare, 1000)));

// a reversed order
func rev(a : Nat, b : Nat) : Order.Order = Nat.compare(b, a);
let r = Map.fromIter<Nat, Text>([(1, "a"), (3, "c"), (2, "b")].vals(), rev);
Debug.print(debug_show (Iter.toArray(Map.keys(r)), Map.toArray(r)));
Debug.print(Map.toText(r, Nat.toText, func(t : Text) : Text = t));
Debug.print(debug_show r);

let c = Map.clone(m);
Debug.print(debug_show (Map.equal(c, m, Nat.compare, Text.equal), Map.compare(c, m, Nat.compare, Text.compare)));
Map.add(c, Nat.compare, 0, "zero");
Debug.print(debug_show (Map.equal(c, m, Nat.compare, Text.equal), Map.compare(c, m, Nat.compare, Text.compare), Map.compare(m, c, Nat.compare, Text.compare)));
Debug.print(debug_show Map.map<Nat, Text, Nat>(r, func(k, v) = k * 2));
Debug.print(debug_show Map.filter(m, Nat.compare, func(k : Nat, v : Text) : Bool = k % 2 == 0));
Debug.print(debug_show Map.filterMap<Nat, Text, Nat>(m, Nat.compare, func(k, v) = if (k > 80) ?k else null));
Debug.print(debug_show (Map.swap(m, Nat.compare, 1000, "y"), Map.replace(m, Nat.compare, 5000, "z"), Map.replace(m, Nat.compare, 1000, "w"), Map.take(m, Nat.compare, 1000), Map.take(m, Nat.compare, 1000), Map.insert(m, Nat.compare, 7, "q"), Map.insert(m, Nat.compare, 7, "q")));
Map.remove(m, Nat.compare, 7);
Map.assertValid(m, Nat.compare);
Map.assertValid(r, rev);

let p = Map.toPure(Map.fromArray<Nat, Text>([(3, "c"), (1, "a"), (2, "b"), (5, "e"), (4, "d")], Nat.compare), Nat.compare);
Debug.print(debug_show p);
Debug.print(debug_show (PureMap.get(p, Nat.compare, 4), PureMap.size(p)));
Debug.print(debug_show Map.fromPure<Nat, Text>(p, Nat.compare));
Debug.print(debug_show (Map.singleton<Nat, Text>(1, "x"), Map.toVarArray(r), Map.fromVarArray<Nat, Text>([var (2, "y"), (1, "z")], Nat.compare), Map.toMap<Nat, Text>([(9, "z")].vals(), Nat.compare)));
Map.clear(m);
Debug.print(debug_show (m, Map.size(b)));
