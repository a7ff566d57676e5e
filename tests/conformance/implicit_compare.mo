// Implicit arguments: omitted `compare`/`equal` are found in scope; a script function
// named `compare` of the right type is preferred to a module's.
import Array "mo:core/Array";
import VarArray "mo:core/VarArray";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Set "mo:core/Set";
import Map "mo:core/Map";
import Debug "mo:core/Debug";

Debug.print(debug_show (Array.sort([3, 1, 2])));
Debug.print(debug_show (Array.sort(["b", "c", "a"])));
Debug.print(debug_show (Array.contains([1, 2, 3], 2)));
Debug.print(debug_show (Array.indexOf(["x", "y"], "y")));
let v = [var 5, 3, 4];
v.sortInPlace();
Debug.print(debug_show v);
VarArray.sortInPlace(v, func(a : Nat, b : Nat) : { #less; #equal; #greater } = Nat.compare(b, a));
Debug.print(debug_show v);
let s = Set.fromIter<Nat>([4, 2, 4, 1].vals());
Debug.print(debug_show (s.toArray()));
let m = Map.fromIter<Nat, Text>([(2, "two"), (1, "one")].vals());
Debug.print(debug_show (m.get(2)));

func byLength(a : Text, b : Text) : { #less; #equal; #greater } = Nat.compare(a.size(), b.size());
Debug.print(debug_show (["ccc", "a", "bb"].sort(byLength)));

do {
  func compare(a : Nat, b : Nat) : { #less; #equal; #greater } = Nat.compare(b, a);
  Debug.print(debug_show ([1, 3, 2].sort()));
};
Debug.print(debug_show ([1, 3, 2].sort()));
