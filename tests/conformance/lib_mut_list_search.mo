// List.binarySearch over lists of every size to 40 (core's search by epochs of blocks, then
// within a block), after removals, and List.sort's stability.
import List "mo:core/List";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";
for (n in Nat.range(0, 40)) {
  let l = List.tabulate<Nat>(n, func i = (i / 2) * 4);
  var out = "";
  for (x in Nat.range(0, 2 * n + 2)) {
    out #= debug_show List.binarySearch(l, Nat.compare, x) # " "
  };
  Debug.print(debug_show n # ": " # out)
};
let l = List.empty<Nat>();
for (i in Nat.range(0, 30)) { List.add(l, i * 2) };
for (i in Nat.range(0, 11)) { ignore List.removeLast(l) };
Debug.print(debug_show (List.binarySearch(l, Nat.compare, 20), List.binarySearch(l, Nat.compare, 37), List.binarySearch(l, Nat.compare, 36), List.binarySearch(l, Nat.compare, 38)));
let d = List.fromArray<Nat>([3, 1, 2, 1, 3, 2]);
Debug.print(debug_show (List.sort(d, Nat.compare), List.sort<(Nat, Nat)>(List.fromArray([(2, 0), (1, 1), (2, 2), (1, 3)]), func (a, b) = Nat.compare(a.0, b.0))));
