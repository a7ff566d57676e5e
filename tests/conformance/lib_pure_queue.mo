// mo:core/pure/Queue made by the script: every function, the two lists as core rebalances
// them after each push and pop, callbacks in core's order (front list, then back list), dot calls.
import Queue "mo:core/pure/Queue";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
import Debug "mo:core/Debug";

let e = Queue.empty<Nat>();
let q = Queue.fromArray<Nat>([1, 2, 3, 4, 5]);
Debug.print(debug_show (e, Queue.singleton<Nat>(7), q, Queue.fromIter<Nat>([1, 2, 3].vals()), Queue.fromArray<Nat>([1])));
Debug.print(debug_show (Queue.isEmpty(e), Queue.isEmpty(q), Queue.size(q), Queue.contains(q, Nat.equal, 4), Queue.contains(q, Nat.equal, 9)));
Debug.print(debug_show (Queue.peekFront(q), Queue.peekBack(q), Queue.peekFront(e), Queue.peekBack(e), Queue.peekFront(Queue.singleton<Nat>(3)), Queue.peekBack(Queue.fromArray<Nat>([4]))));
var r = Queue.empty<Nat>();
for (i in Nat.range(0, 6)) {
  r := if (i % 2 == 0) Queue.pushBack(r, i) else Queue.pushFront(r, i);
  Debug.print(debug_show r);
};
label l loop {
  switch (Queue.popFront(r)) {
    case null break l;
    case (?(x, rest)) { Debug.print(debug_show (x, rest)); r := rest };
  };
};
r := Queue.fromArray<Nat>([1, 2, 3, 4, 5, 6, 7]);
label l loop {
  switch (Queue.popBack(r)) {
    case null break l;
    case (?(rest, x)) { Debug.print(debug_show (rest, x)); r := rest };
  };
};
Debug.print(debug_show (Queue.popFront(e), Queue.popBack(e), Queue.popFront(Queue.singleton<Nat>(1)), Queue.popBack(Queue.singleton<Nat>(1))));
Debug.print(debug_show (Queue.reverse(q), Queue.toArray(q), Queue.toArray(Queue.reverse(q)), Iter.toArray(Queue.values(q))));
Debug.print(debug_show (Queue.all<Nat>(q, func x = x > 0), Queue.any<Nat>(q, func x = x > 4), Queue.all<Nat>(e, func x = false)));
Debug.print(debug_show (Queue.map<Nat, Nat>(q, func x = x * 2), Queue.filter<Nat>(q, func x = x % 2 == 1), Queue.filterMap<Nat, Nat>(q, func x = if (x > 3) ?x else null)));
Debug.print(debug_show (Queue.filter<Nat>(q, func x = x == 1), Queue.filter<Nat>(q, func x = x == 5), Queue.filter<Nat>(q, func x = x > 2)));
Debug.print(Queue.toText(q, Nat.toText));
Debug.print(Queue.toText(e, Nat.toText));
Debug.print(Queue.toText(q, func x = if (x == 1) "" else Nat.toText x));
Debug.print(debug_show (Queue.compare(q, q, Nat.compare), Queue.compare(q, Queue.pushBack(q, 0), Nat.compare), Queue.compare(Queue.pushFront(q, 9), q, Nat.compare), Queue.compare(e, q, Nat.compare)));
Debug.print(debug_show (Queue.equal(q, q, Nat.equal), Queue.equal(q, Queue.reverse(q), Nat.equal), Queue.equal(q, Queue.fromIter<Nat>([1, 2, 3, 4, 5].vals()), Nat.equal)));
Queue.forEach<Nat>(q, func x = Debug.print(Nat.toText x));
Debug.print(debug_show (Queue.toQueue<Nat>([9, 8].vals())));
// callbacks in core's order
let w = Queue.pushFront(Queue.pushBack(Queue.pushBack(Queue.fromArray<Nat>([1, 2, 3]), 4), 5), 0);
Debug.print(debug_show w);
ignore Queue.map<Nat, Nat>(w, func x { Debug.print(debug_show x); x });
ignore Queue.filter<Nat>(w, func x { Debug.print(debug_show x); true });
Debug.print(debug_show (Queue.contains<Nat>(w, func(a, b) { Debug.print(debug_show (a, b)); a == b }, 9)));
// dot notation
Debug.print(debug_show (q.size(), q.pushBack(6), q.pushFront(0), q.popFront(), q.popBack(), q.peekFront(), q.contains(3), q.equal(q), q.compare(q), q.toText(), q.reverse(), q.values().toArray(), [1].vals().toQueue()));
