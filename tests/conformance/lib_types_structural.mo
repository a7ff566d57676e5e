// The library's collection types are structural, as in moc: a script takes them apart
// with patterns and reads their fields, and a Nat stored where the type says Int shows
// as an Int at every depth.
import Debug "mo:core/Debug";
import List "mo:core/pure/List";
import PureMap "mo:core/pure/Map";
import PureSet "mo:core/pure/Set";
import PureQueue "mo:core/pure/Queue";
import Map "mo:core/Map";
import Set "mo:core/Set";
import Stack "mo:core/Stack";
import Nat "mo:core/Nat";
import Int "mo:core/Int";

let l : List.List<Int> = List.pushFront(List.empty(), 5);
Debug.print(debug_show (switch (l) { case (?(h, _)) h; case null 0 }, l));

var long : List.List<Int> = List.empty();
var i = 0;
while (i < 40) { i += 1; long := List.pushFront(long, i) };
Debug.print(debug_show long);
Debug.print(debug_show (List.size(long), List.get(long, 3)));

let pm : PureMap.Map<Nat, Int> = PureMap.add(PureMap.add(PureMap.empty(), Nat.compare, 1, 5), Nat.compare, 2, 7);
Debug.print(debug_show pm);
Debug.print(debug_show (pm.size, switch (pm.root) { case (#black(_, k, v, _)) (k, v); case _ (0, 0) }));

let ps : PureSet.Set<Int> = PureSet.add(PureSet.empty(), Int.compare, 3);
Debug.print(debug_show ps);

let q : PureQueue.Queue<Int> = PureQueue.pushBack(PureQueue.pushBack(PureQueue.empty(), 1), 2);
Debug.print(debug_show q);
let (front, n, back) = q;
Debug.print(debug_show (front, n, back));

let m = Map.empty<Nat, Int>();
Map.add(m, Nat.compare, 1, 10);
Map.add(m, Nat.compare, 2, 20);
Debug.print(debug_show (m.size, m.size(), Map.get(m, Nat.compare, 2)));
Debug.print(debug_show m);

let s = Set.empty<Int>();
Set.add(s, Int.compare, 4);
Debug.print(debug_show (s.size(), s));

let st = Stack.empty<Int>();
Stack.push(st, 9);
Debug.print(debug_show (st.size, st.top, st));
