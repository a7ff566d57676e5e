// generic functions over pairs and arrays, instantiated explicitly
import Debug "mo:core/Debug";
import Array "mo:core/Array";
func swap<A, B>(p : (A, B)) : (B, A) { (p.1, p.0) };
func unzip<A, B>(ps : [(A, B)]) : ([A], [B]) {
  (Array.map<(A, B), A>(ps, func p = p.0), Array.map<(A, B), B>(ps, func p = p.1))
};
let ps : [(Nat, Text)] = [(1, "a"), (2, "b")];
Debug.print(debug_show Array.map<(Nat, Text), (Text, Nat)>(ps, func p = swap<Nat, Text>(p)));
Debug.print(debug_show unzip<Nat, Text>(ps));
let ints : [(Int, Bool)] = [(-1, true), (2, false)];
Debug.print(debug_show unzip<Int, Bool>(ints));
