// mo:core pure/List, Map, Set and Queue at their edges: empty and one-element structures,
// removals down to empty, non-ASCII text keys, Int elements, maps and filters to nothing.
import List "mo:core/pure/List";
import Map "mo:core/pure/Map";
import Set "mo:core/pure/Set";
import Queue "mo:core/pure/Queue";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let n = List.empty<Nat>();
let one = List.singleton<Nat>(1);
Debug.print(debug_show (List.reverse(n), List.concat(n, n), List.concat(one, n), List.concat(n, one), List.flatten<Nat>(null), List.join<Nat>(Iter.empty())));
Debug.print(debug_show (List.take(n, 3), List.drop(n, 0), List.drop(one, 1), List.split(n, 2), List.split(one, 1), List.chunks(n, 1), List.chunks(one, 1)));
Debug.print(debug_show (List.partition<Nat>(n, func x = true), List.merge(n, one, Nat.compare), List.merge(one, n, Nat.compare), List.merge(n, n, Nat.compare)));
Debug.print(debug_show (List.zip<Nat, Nat>(n, one), List.zip<Nat, Nat>(one, one), List.mapResult<Nat, Nat, Text>(n, func x = #err "never")));
Debug.print(debug_show (List.compare(n, n, Nat.compare), List.compare(n, one, Nat.compare), List.compare(one, n, Nat.compare), List.equal(n, one, Nat.equal), List.equal(n, n, Nat.equal)));
Debug.print(debug_show (List.tabulate<Nat>(0, func i = i), List.repeat<Nat>(1, 0), List.fromArray<Nat>([]), List.toArray(n), List.last(n), List.last(one), List.get(one, 0), List.get(n, 0)));
Debug.print(debug_show (List.popFront(one), List.pushFront(n, 2), List.size(n), List.isEmpty(one), List.toText(n, Nat.toText), List.toText(one, Nat.toText)));
let merged = List.merge<Int>(List.fromArray<Int>([-3, -1, 2]), List.fromArray<Int>([-2, 0, 2, 5]), Int.compare);
Debug.print(debug_show (merged, List.chunks(merged, 3), List.reverse(merged)));

let e = Map.empty<Text, Nat>();
let s1 = Map.singleton<Text, Nat>("é", 1);
Debug.print(debug_show (Map.remove(e, Text.compare, "a"), Map.take(e, Text.compare, "a"), Map.delete(e, Text.compare, "a"), Map.maxEntry(e), Map.get(e, Text.compare, "a")));
Debug.print(debug_show (Map.remove(s1, Text.compare, "é"), Map.take(s1, Text.compare, "é"), Map.take(s1, Text.compare, "a"), Map.add(s1, Text.compare, "z", 2), Map.add(s1, Text.compare, "a", 3)));
Debug.print(debug_show (Map.map<Text, Nat, Nat>(e, func(k, v) = v), Map.filter<Text, Nat>(s1, Text.compare, func(k, v) = false), Map.filterMap<Text, Nat, Nat>(s1, Text.compare, func(k, v) = ?v)));
Debug.print(debug_show (Map.equal(e, e, Text.compare, Nat.equal), Map.compare(e, s1, Text.compare, Nat.compare), Map.compare(s1, e, Text.compare, Nat.compare), Map.fromIter<Text, Nat>(Iter.empty(), Text.compare)));
var m = Map.fromIter<Text, Nat>([("ü", 1), ("a", 2), ("Z", 3), ("日本", 4), ("", 5), ("ab", 6)].vals(), Text.compare);
Debug.print(debug_show (m, Iter.toArray(Map.keys(m)), Map.toText<Text, Nat>(m, func t = t, Nat.toText)));
for (k in ["日本", "", "a", "ab", "ü", "Z"].vals()) { m := Map.remove(m, Text.compare, k); Debug.print(debug_show m) };
Map.assertValid(s1, Text.compare);
Map.assertValid(e, Text.compare);

let se = Set.empty<Int>();
let so = Set.singleton<Int>(-1);
Debug.print(debug_show (Set.union(se, se, Int.compare), Set.union(so, se, Int.compare), Set.intersection(so, se, Int.compare), Set.intersection(so, so, Int.compare), Set.difference(so, so, Int.compare), Set.difference(se, so, Int.compare)));
Debug.print(debug_show (Set.isSubset(se, se, Int.compare), Set.isSubset(so, se, Int.compare), Set.equal(se, se, Int.compare), Set.compare(so, so, Int.compare), Set.min(so), Set.max(so)));
Debug.print(debug_show (Set.flatten<Int>(Set.empty(), Int.compare), Set.join<Int>(Iter.empty(), Int.compare), Set.remove(so, Int.compare, -1), Set.delete(so, Int.compare, 0), Set.insert(so, Int.compare, -1)));
let big = Set.fromIter<Int>([5, -5, 3, -3, 1, -1, 0].vals(), Int.compare);
Debug.print(debug_show (Set.map<Int, Int>(big, Int.compare, func x = if (x < 0) -x else x), Set.filterMap<Int, Nat>(big, Nat.compare, func x = null), Set.filter<Int>(big, Int.compare, func x = x > 10)));
Debug.print(debug_show (Set.intersection(big, Set.fromIter<Int>([-5, 0, 5, 7].vals(), Int.compare), Int.compare), Set.difference(big, Set.fromIter<Int>([-5, 0].vals(), Int.compare), Int.compare)));
for (k in Nat.range(1, 12)) {
  let xs = Set.fromIter<Nat>(Nat.range(0, k), Nat.compare);
  Debug.print(debug_show (Set.intersection(xs, xs, Nat.compare)));
};

let qe = Queue.empty<Int>();
let q1 = Queue.singleton<Int>(-7);
Debug.print(debug_show (Queue.popFront(q1), Queue.popBack(q1), Queue.pushFront(qe, (1 : Int)), Queue.pushBack(qe, (1 : Int)), Queue.fromArray<Int>([]), Queue.fromArray<Int>([-1])));
Debug.print(debug_show (Queue.peekFront(q1), Queue.peekBack(q1), Queue.peekFront(Queue.reverse(q1)), Queue.peekBack(Queue.reverse(q1)), Queue.reverse(qe)));
Debug.print(debug_show (Queue.filter<Int>(q1, func x = false), Queue.map<Int, Int>(qe, func x = x), Queue.filterMap<Int, Int>(q1, func x = ?x), Queue.toArray(qe), Queue.size(q1)));
Debug.print(debug_show (Queue.equal(qe, qe, Int.equal), Queue.compare(qe, q1, Int.compare), Queue.compare(q1, qe, Int.compare), Queue.toText(q1, Int.toText), Queue.contains(qe, Int.equal, 0)));
let q2 = Queue.fromArray<Int>([1, 2]);
Debug.print(debug_show (q2, Queue.popFront(q2), Queue.popBack(q2), Queue.pushFront(q2, (0 : Int)), Queue.pushBack(q2, (3 : Int))));
