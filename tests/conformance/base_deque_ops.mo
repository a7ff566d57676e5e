// mo:base Deque: base's pair of lists, its exact shapes after every push and pop.
import Deque "mo:base/Deque";
import Debug "mo:base/Debug";

type D = Deque.Deque<Nat>;
var d : D = Deque.empty<Nat>();
Debug.print(debug_show (d, Deque.isEmpty(d), Deque.peekFront(d), Deque.peekBack(d), Deque.popFront(d), Deque.popBack(d)));
var i = 0;
while (i < 7) {
  d := if (i % 3 == 0) Deque.pushFront(d, i) else Deque.pushBack(d, i);
  Debug.print(debug_show (d, Deque.peekFront(d), Deque.peekBack(d)));
  i += 1;
};
label pops loop {
  switch (if (i % 2 == 0) Deque.popFront(d) else null) {
    case (?(x, rest)) { d := rest; Debug.print("front " # debug_show (x, d)) };
    case null {
      switch (Deque.popBack(d)) {
        case (?(rest, x)) { d := rest; Debug.print("back " # debug_show (x, d)) };
        case null { break pops };
      };
    };
  };
  i += 1;
};
Debug.print(debug_show (d, Deque.isEmpty(d)));
var e : D = Deque.empty<Nat>();
for (k in [1, 2, 3, 4, 5, 6].vals()) { e := Deque.pushBack(e, k) };
Debug.print(debug_show e);
switch (Deque.popFront(e)) { case (?(x, r)) Debug.print(debug_show (x, r)); case null {} };
var f : D = Deque.empty<Nat>();
for (k in [1, 2, 3, 4, 5].vals()) { f := Deque.pushFront(f, k) };
Debug.print(debug_show f);
switch (Deque.popBack(f)) { case (?(r, x)) Debug.print(debug_show (r, x)); case null {} };
let lopsided : D = (null, ?(1, ?(2, ?(3, null))));
Debug.print(debug_show (Deque.peekFront(lopsided), Deque.peekBack(lopsided), Deque.popFront(lopsided), Deque.popBack(lopsided), Deque.isEmpty(lopsided)));
let other : D = (?(1, ?(2, ?(3, null))), null);
Debug.print(debug_show (Deque.peekFront(other), Deque.peekBack(other), Deque.popFront(other), Deque.popBack(other)));
