// mo:core/pure/Set made by the script: every function, set algebra (core's sorted rebuilds
// and folds), `compare` called on core's pairs in core's order, dot calls.
import Set "mo:core/pure/Set";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let e = Set.empty<Nat>();
let s = Set.fromIter<Nat>([5, 2, 8, 1, 9, 3, 2].vals(), Nat.compare);
let t = Set.fromIter<Nat>([2, 4, 6, 8, 10, 12, 14, 16].vals(), Nat.compare);
Debug.print(debug_show (e, Set.singleton<Nat>(1), s, t));
Debug.print(debug_show (Set.isEmpty(e), Set.isEmpty(s), Set.size(s), Set.contains(s, Nat.compare, 8), Set.contains(s, Nat.compare, 7)));
Debug.print(debug_show (Set.add(s, Nat.compare, 4), Set.add(s, Nat.compare, 5)));
Debug.print(debug_show (Set.insert(s, Nat.compare, 4), Set.insert(s, Nat.compare, 5)));
Debug.print(debug_show (Set.remove(s, Nat.compare, 4), Set.remove(s, Nat.compare, 5)));
Debug.print(debug_show (Set.delete(s, Nat.compare, 4), Set.delete(s, Nat.compare, 2)));
Debug.print(debug_show (Set.min(s), Set.max(s), Set.min(e), Set.max(e)));
Debug.print(debug_show (Set.union(s, t, Nat.compare), Set.union(t, s, Nat.compare), Set.union(e, s, Nat.compare)));
Debug.print(debug_show (Set.intersection(s, t, Nat.compare), Set.intersection(t, s, Nat.compare), Set.intersection(s, e, Nat.compare)));
Debug.print(debug_show (Set.difference(s, t, Nat.compare), Set.difference(t, s, Nat.compare), Set.difference(s, e, Nat.compare), Set.difference(e, s, Nat.compare)));
Debug.print(debug_show (Set.intersection(t, Set.fromIter<Nat>([1, 2, 4, 6, 8, 10, 12, 14, 16, 18].vals(), Nat.compare), Nat.compare)));
Debug.print(debug_show (Set.map<Nat, Text>(s, Text.compare, Nat.toText), Set.filter<Nat>(s, Nat.compare, func x = x > 2), Set.filterMap<Nat, Nat>(s, Nat.compare, func x = if (x > 2) ?(x / 2) else null)));
Debug.print(debug_show (Set.isSubset(s, t, Nat.compare), Set.isSubset(Set.fromIter<Nat>([2, 8].vals(), Nat.compare), t, Nat.compare), Set.isSubset(e, s, Nat.compare), Set.isSubset(s, s, Nat.compare)));
Debug.print(debug_show (Set.equal(s, s, Nat.compare), Set.equal(s, t, Nat.compare), Set.equal(s, Set.fromIter<Nat>([9, 8, 5, 3, 2, 1].vals(), Nat.compare), Nat.compare)));
Debug.print(debug_show (Set.compare(s, t, Nat.compare), Set.compare(s, s, Nat.compare), Set.compare(e, s, Nat.compare), Set.compare(s, e, Nat.compare)));
Debug.print(debug_show (Iter.toArray(Set.values(s)), Iter.toArray(Set.reverseValues(s))));
Debug.print(debug_show (Set.foldLeft<Nat, Text>(s, "", func(a, x) = a # Nat.toText x), Set.foldRight<Nat, Text>(s, "", func(x, a) = a # Nat.toText x)));
Debug.print(debug_show (Set.all<Nat>(s, func x = x > 0), Set.any<Nat>(s, func x = x == 9)));
Set.assertValid(s, Nat.compare);
Debug.print(Set.toText(s, Nat.toText));
let sets = Set.fromIter<Set.Set<Nat>>([s, t, e].vals(), func(a, b) = Set.compare(a, b, Nat.compare));
Debug.print(debug_show (Set.flatten(sets, Nat.compare), Set.join<Nat>([s, t, Set.singleton<Nat>(100)].vals(), Nat.compare)));
Set.forEach<Nat>(s, func x = Debug.print(Nat.toText x));
Debug.print(debug_show (Set.toSet<Nat>([3, 3, 1].vals(), Nat.compare)));
// callbacks in core's order
let loud = func(a : Nat, b : Nat) : {#less; #equal; #greater} { Debug.print(debug_show (a, b)); Nat.compare(a, b) };
Debug.print(debug_show (Set.isSubset(Set.fromIter<Nat>([2, 8, 3].vals(), Nat.compare), s, loud)));
Debug.print(debug_show (Set.equal(s, s, loud)));
ignore Set.union(s, t, loud);
ignore Set.difference(t, s, loud);
Set.assertValid(t, loud);
Debug.print(debug_show (Set.all<Nat>(t, func x { Debug.print(debug_show x); x < 12 })));
// dot notation
Debug.print(debug_show (s.contains(3), s.add(7), s.union(t), s.toText(), s.equal(s), s.isSubset(t), [4, 1].vals().toSet(), s.values().toArray()));
