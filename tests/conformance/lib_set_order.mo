import Set "mo:core/Set";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
import Order "mo:core/Order";
import Debug "mo:core/Debug";

let s = Set.empty<Nat>();
Debug.print(debug_show (Set.isEmpty(s), Set.size(s), Set.min(s), Set.max(s)));
for (x in [5, 3, 9, 3, 1].vals()) Set.add(s, Nat.compare, x);
Debug.print(debug_show (Set.toArray(s), Set.size(s), Set.isEmpty(s)));
Debug.print(debug_show (Set.insert(s, Nat.compare, 7), Set.insert(s, Nat.compare, 7)));
Debug.print(debug_show (Set.delete(s, Nat.compare, 3), Set.delete(s, Nat.compare, 3)));
Set.remove(s, Nat.compare, 100);
Debug.print(debug_show (Set.contains(s, Nat.compare, 9), Set.contains(s, Nat.compare, 3)));
Debug.print(debug_show (Set.min(s), Set.max(s), Iter.toArray(Set.values(s))));
let t = Set.fromIter<Text>(["b", "a", "c", "a"].vals(), Text.compare);
Debug.print(debug_show (Set.toArray(t), Set.size(Set.singleton<Nat>(4))));
let u = Set.fromArray<Nat>([4, 2, 2], Nat.compare);
Debug.print(debug_show Set.toArray(u));
for (o in [#less, #equal, #greater].vals()) {
  Debug.print(debug_show (Order.isLess(o), Order.isEqual(o), Order.isGreater(o), Order.equal(o, #equal)));
};
