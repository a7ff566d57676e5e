// pure/Map and pure/Set trees as core shapes them: each insertion and removal of random
// keys (many duplicates), of ascending and descending runs, and removals of absent keys
// (`take` keeps the rebuilt tree), shown node for node.
import Map "mo:core/pure/Map";
import Set "mo:core/pure/Set";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";

var seed = 4242;
func rand(n : Nat) : Nat { seed := (seed * 1103515245 + 12345) % 2147483648; (seed / 65536) % n };

for (round in Nat.range(0, 6)) {
  let range = 4 + round * 9;
  var m = Map.empty<Nat, Nat>();
  var s = Set.empty<Nat>();
  for (i in Nat.range(0, 24)) {
    let k = rand(range);
    if (rand(4) == 0) {
      m := Map.remove(m, Nat.compare, k);
      s := Set.remove(s, Nat.compare, k);
      Debug.print("-" # debug_show k # " " # debug_show m.root);
    } else {
      m := Map.add(m, Nat.compare, k, i);
      s := Set.add(s, Nat.compare, k);
      Debug.print("+" # debug_show k # " " # debug_show m.root);
    };
    Debug.print("  " # debug_show s);
  };
  while (not Map.isEmpty(m)) {
    let k = rand(range);
    let (m2, v) = Map.take(m, Nat.compare, k);
    m := m2;
    s := Set.remove(s, Nat.compare, k);
    Debug.print("take " # debug_show (k, v) # " " # debug_show m);
    Debug.print("  " # debug_show s);
    Map.assertValid(m, Nat.compare);
    Set.assertValid(s, Nat.compare);
  };
};
var m = Map.empty<Nat, Text>();
for (i in Nat.range(0, 20)) { m := Map.add(m, Nat.compare, i, "") };
Debug.print(debug_show m);
for (i in Nat.range(0, 20)) { m := Map.remove(m, Nat.compare, 19 - i); Debug.print(debug_show m.root) };
var s = Set.empty<Nat>();
for (i in Nat.range(0, 20)) { s := Set.add(s, Nat.compare, 20 - i) };
Debug.print(debug_show s);
for (i in Nat.range(0, 20)) { s := Set.remove(s, Nat.compare, i + 1); Debug.print(debug_show s.root) };
