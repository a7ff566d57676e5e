// mo:core/pure/Map made by the script: every function, the red-black tree each update leaves,
// `compare` and the callbacks called on core's pairs in core's order, dot calls.
import Map "mo:core/pure/Map";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let e = Map.empty<Nat, Text>();
let m = Map.fromIter<Nat, Text>([(5, "e"), (2, "b"), (8, "h"), (1, "a"), (9, "i"), (3, "c")].vals(), Nat.compare);
Debug.print(debug_show (e, Map.singleton<Nat, Text>(1, "x"), m));
Debug.print(debug_show (Map.isEmpty(e), Map.isEmpty(m), Map.size(m), Map.get(m, Nat.compare, 8), Map.get(m, Nat.compare, 7), Map.containsKey(m, Nat.compare, 1)));
Debug.print(debug_show (Map.insert(m, Nat.compare, 4, "d"), Map.insert(m, Nat.compare, 5, "E")));
Debug.print(debug_show (Map.swap(m, Nat.compare, 4, "d"), Map.swap(m, Nat.compare, 5, "E")));
Debug.print(debug_show (Map.replace(m, Nat.compare, 4, "d"), Map.replace(m, Nat.compare, 5, "E")));
Debug.print(debug_show (Map.remove(m, Nat.compare, 4), Map.remove(m, Nat.compare, 5)));
Debug.print(debug_show (Map.delete(m, Nat.compare, 4), Map.delete(m, Nat.compare, 2)));
Debug.print(debug_show (Map.take(m, Nat.compare, 4), Map.take(m, Nat.compare, 8)));
Debug.print(debug_show (Map.maxEntry(m), Map.minEntry(m), Map.maxEntry(e), Map.minEntry(e)));
Debug.print(debug_show (Iter.toArray(Map.entries(m)), Iter.toArray(Map.reverseEntries(m)), Iter.toArray(Map.keys(m)), Iter.toArray(Map.values(m))));
Debug.print(debug_show (Map.fromIter<Nat, Text>([(1, "a"), (1, "b"), (2, "c")].vals(), Nat.compare)));
Debug.print(debug_show (Map.toMap<Nat, Text>([(1, "a")].vals(), Nat.compare)));
Debug.print(debug_show (Map.map<Nat, Text, Nat>(m, func(k, v) = k * 10 + Text.size(v))));
Debug.print(debug_show (Map.foldLeft<Nat, Text, Text>(m, "", func(a, k, v) = a # v), Map.foldRight<Nat, Text, Text>(m, "", func(k, v, a) = a # v)));
Debug.print(debug_show (Map.all<Nat, Text>(m, func(k, v) = k > 0), Map.any<Nat, Text>(m, func(k, v) = v == "i")));
Debug.print(debug_show (Map.filter<Nat, Text>(m, Nat.compare, func(k, v) = k % 2 == 1)));
Debug.print(debug_show (Map.filterMap<Nat, Text, Nat>(m, Nat.compare, func(k, v) = if (k > 2) ?(k + 100) else null)));
Map.assertValid(m, Nat.compare);
Debug.print(Map.toText<Nat, Text>(m, Nat.toText, func t = t));
Debug.print(debug_show (Map.equal(m, m, Nat.compare, Text.equal), Map.equal(m, Map.add(m, Nat.compare, 1, "z"), Nat.compare, Text.equal), Map.equal(m, e, Nat.compare, Text.equal)));
Debug.print(debug_show (Map.compare(m, m, Nat.compare, Text.compare), Map.compare(m, Map.add(m, Nat.compare, 1, "z"), Nat.compare, Text.compare), Map.compare(e, m, Nat.compare, Text.compare), Map.compare(m, Map.remove(m, Nat.compare, 1), Nat.compare, Text.compare)));
Map.forEach<Nat, Text>(m, func(k, v) = Debug.print(Nat.toText k # v));
// callbacks in core's order
let trace = func(k : Nat, v : Text) : Bool { Debug.print("visit " # Nat.toText k); k != 3 };
Debug.print(debug_show (Map.all<Nat, Text>(m, trace), Map.any<Nat, Text>(m, func(k, v) = not trace(k, v))));
let loud = func(a : Nat, b : Nat) : {#less; #equal; #greater} { Debug.print(debug_show (a, b)); Nat.compare(a, b) };
ignore Map.add(m, loud, 4, "d");
ignore Map.remove(m, loud, 8);
ignore Map.get(m, loud, 3);
Map.assertValid(m, loud);
// dot notation, implicit compare
Debug.print(debug_show (m.get(5), m.add(6, "f"), m.size(), m.containsKey(2), m.remove(2), m.toText(), m.equal(m), m.compare(m)));
Debug.print(debug_show (m.entries().toArray(), [(3, "x")].vals().toMap(), m.filter(func(k, v) = k > 4), m.map(func(k, v) = v # v)));
// reversed order
let r = Map.fromIter<Nat, Text>([(1, "a"), (2, "b"), (3, "c")].vals(), func(a, b) = Nat.compare(b, a));
Debug.print(debug_show (r, Map.maxEntry(r), Map.minEntry(r), Iter.toArray(Map.keys(r))));
