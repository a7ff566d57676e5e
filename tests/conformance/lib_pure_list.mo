// mo:core/pure/List made by the script: every function, the shared ones (map, foldLeft...),
// callbacks in core's order, dot calls with implicit arguments, and core's own trap.
import List "mo:core/pure/List";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let e = List.empty<Nat>();
let l = List.fromArray<Nat>([3, 1, 4, 1, 5, 9, 2, 6]);
Debug.print(debug_show (e, List.singleton<Nat>(7), List.pushFront(l, 0), List.popFront(l), List.popFront(e)));
Debug.print(debug_show (List.isEmpty(e), List.isEmpty(l), List.size(l), List.get(l, 2), List.get(l, 20)));
Debug.print(debug_show (List.fromVarArray<Nat>([var 1, 2]), List.toVarArray<Nat>(l), List.toArray(l)));
Debug.print(debug_show (List.fromIter<Nat>([5, 6].vals()), List.tabulate<Nat>(4, func i = i * i), List.repeat<Text>("x", 3)));
Debug.print(debug_show (List.concat(l, List.singleton<Nat>(100)), List.reverse(l), List.reverse(e)));
Debug.print(debug_show (List.flatten<Nat>(?(?(1, null), ?(null, ?(?(2, ?(3, null)), null))))));
Debug.print(debug_show (List.join<Nat>([?(1, null), null, ?(2, ?(3, null))].vals())));
Debug.print(debug_show (List.take(l, 3), List.take(l, 30), List.drop(l, 5), List.drop(l, 50), List.take(l, 0)));
Debug.print(debug_show (List.split(l, 3), List.split(l, 0), List.split(l, 80)));
Debug.print(debug_show (List.chunks(l, 3), List.chunks(l, 4), List.chunks(e, 2)));
Debug.print(debug_show (List.partition<Nat>(l, func x = x % 2 == 0)));
Debug.print(debug_show (List.merge<Nat>(?(1, ?(4, ?(6, null))), ?(2, ?(4, ?(7, ?(9, null)))), Nat.compare)));
Debug.print(debug_show (List.zip<Nat, Text>(l, ?("a", ?("b", null))), List.zipWith<Nat, Nat, Nat>(l, l, Nat.add)));
Debug.print(debug_show (List.mapResult<Nat, Nat, Text>(l, func x = if (x < 10) #ok(x + 1) else #err "big")));
Debug.print(debug_show (List.mapResult<Nat, Nat, Text>(l, func x = if (x < 9) #ok(x + 1) else #err ("big " # Nat.toText x))));
Debug.print(debug_show (List.compare(l, l, Nat.compare), List.compare(l, List.take(l, 2), Nat.compare), List.compare(List.take(l, 2), l, Nat.compare), List.compare(?(1, null), ?(2, null), Nat.compare)));
Debug.print(debug_show (List.equal(l, l, Nat.equal), List.equal(l, List.take(l, 7), Nat.equal), List.equal(e, e, Nat.equal)));
Debug.print(debug_show (List.toList<Nat>([8, 9].vals())));
// the shared functions
Debug.print(debug_show (List.contains(l, Nat.equal, 9), List.last(l), List.find<Nat>(l, func x = x > 3), List.findIndex<Nat>(l, func x = x > 3)));
Debug.print(debug_show (List.map<Nat, Text>(l, Nat.toText), List.filter<Nat>(l, func x = x > 2), List.filterMap<Nat, Nat>(l, func x = if (x > 2) ?(x * 10) else null)));
Debug.print(debug_show (List.foldLeft<Nat, Text>(l, "", func(a, x) = a # Nat.toText x), List.foldRight<Nat, Text>(l, "", func(x, a) = a # Nat.toText x)));
Debug.print(debug_show (List.all<Nat>(l, func x = x > 0), List.any<Nat>(l, func x = x > 8), Iter.toArray(List.enumerate(l)), Iter.toArray(List.values(l))));
Debug.print(List.toText(l, Nat.toText));
List.forEach<Nat>(l, func x = Debug.print(Nat.toText x));
// dot notation and implicit arguments
Debug.print(debug_show (l.size(), l.reverse(), l.take(2), l.compare(l), l.equal(l), l.merge(l), l.toText(Nat.toText), l.contains(4)));
Debug.print(debug_show ([1, 2].vals().toList(), l.chunks(5), l.split(1), l.pushFront(42)));
// Int elements
let li = List.fromArray<Int>([1, -2, 3]);
Debug.print(debug_show (li, List.pushFront(li, 4), List.map<Int, Int>(li, func x = x * 2), List.tabulate<Int>(2, func(i : Nat) : Int = i)));
// traps in core's Runtime.trap
Debug.print(debug_show (List.chunks(l, 0)));
