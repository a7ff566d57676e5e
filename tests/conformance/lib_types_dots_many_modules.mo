// Contextual dot calls on the library's (structural) collection types with every module
// imported: each resolves to its own module's function, as in moc.
import Debug "mo:core/Debug";
import Option "mo:core/Option";
import List "mo:core/pure/List";
import PMap "mo:core/pure/Map";
import PSet "mo:core/pure/Set";
import PQueue "mo:core/pure/Queue";
import Map "mo:core/Map";
import Set "mo:core/Set";
import Stack "mo:core/Stack";
import Queue "mo:core/Queue";
import VList "mo:core/List";
import Nat "mo:core/Nat";
import Iter "mo:core/Iter";
let o : ?Nat = ?3;
let m = PMap.fromIter<Nat, Nat>([(1, 2)].vals(), Nat.compare);
let s = Stack.empty<Nat>(); s.push(4);
let q = PQueue.pushBack(PQueue.empty<Nat>(), 1);
let v = VList.empty<Nat>(); v.add(3);
let st = Set.empty<Nat>(); st.add(5);
let qq = Queue.empty<Nat>(); qq.pushBack(7);
Debug.print(debug_show (o.get(0), o.isSome()));
Debug.print(debug_show (m.get(1), m.size(), m.isEmpty()));
Debug.print(debug_show (s.size(), s.peek(), s.isEmpty()));
Debug.print(debug_show (q.size(), q.peekFront()));
Debug.print(debug_show (v.size(), v.get(0), v.isEmpty()));
Debug.print(debug_show (st.size(), st.contains(5)));
Debug.print(debug_show (qq.size(), qq.peekFront()));
