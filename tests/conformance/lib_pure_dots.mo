// Contextual dot calls on empty pure structures and chains of them (which module a value
// fits: an empty list, map, set or queue), with implicit compare.
import List "mo:core/pure/List";
import Map "mo:core/pure/Map";
import Set "mo:core/pure/Set";
import Queue "mo:core/pure/Queue";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";
let l = List.empty<Nat>();
let m = Map.empty<Nat, Nat>();
let s = Set.empty<Nat>();
let q = Queue.empty<Nat>();
Debug.print(debug_show (l.size(), l.isEmpty(), l.pushFront(1), l.reverse(), l.toArray()));
Debug.print(debug_show (m.size(), m.isEmpty(), m.add(1, 2), m.get(1), m.insert(3, 4)));
Debug.print(debug_show (s.size(), s.isEmpty(), s.add(1), s.contains(1), s.insert(3)));
Debug.print(debug_show (q.size(), q.isEmpty(), q.pushBack(1), q.popFront(), q.toArray()));
let m2 = m.add(5, 6).add(1, 1).remove(5);
let s2 = s.add(5).add(1).remove(5);
Debug.print(debug_show (m2, s2, m2.foldLeft(0, func(a, k, v) = a + k + v), s2.foldLeft(0, Nat.add)));
