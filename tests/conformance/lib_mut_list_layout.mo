// A script's List under a random mix of add, removeLast, addRepeat, truncate and retain:
// its blocks as core lays them out.
import List "mo:core/List";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";
var seed = 12345;
func rnd(n : Nat) : Nat { seed := (seed * 1103515245 + 12345) % 2147483648; seed % n };
let l = List.empty<Nat>();
for (step in Nat.range(0, 400)) {
  let op = rnd(10);
  if (op < 5) { List.add(l, rnd(1000)) }
  else if (op < 7) { ignore List.removeLast(l) }
  else if (op == 7) { List.addRepeat(l, rnd(10), rnd(40)) }
  else if (op == 8) { List.truncate(l, rnd(List.size(l) + 1)) }
  else { List.retain<Nat>(l, func x = x % 3 != 0) };
  if (step % 40 == 0) { Debug.print(debug_show l) };
};
Debug.print(debug_show l);
let big = List.tabulate<Nat>(300, func i = i);
Debug.print(debug_show (List.binarySearch(big, Nat.compare, 150), List.binarySearch(big, Nat.compare, 299), List.binarySearch(big, Nat.compare, 0), List.binarySearch(big, Nat.compare, 77)));
for (i in Nat.range(0, 290)) { ignore List.removeLast(big) };
Debug.print(debug_show big);
let j = List.join<Nat>([List.tabulate<Nat>(40, func i = i), List.tabulate<Nat>(70, func i = i)].vals());
Debug.print(debug_show j);
let f = List.flatten<Nat>(List.fromArray([List.tabulate<Nat>(40, func i = i), List.tabulate<Nat>(70, func i = i)]));
Debug.print(debug_show f);
let m = List.map<Nat, Nat>(l, func x = x + 1);
Debug.print(debug_show m);
let c = List.clone(l);
Debug.print(debug_show c);
List.deduplicate(c, func (a : Nat, b : Nat) : Bool = a / 100 == b / 100);
Debug.print(debug_show c);
