// Script-built Map and Set over two and three levels: leaf splits, borrows and merges
// under deletion.
import Map "mo:core/Map";
import Set "mo:core/Set";
import Nat "mo:core/Nat";
import Debug "mo:core/Debug";
let m = Map.empty<Nat, Nat>();
let s = Set.empty<Nat>();
for (i in Nat.range(0, 600)) { let k = (i * 7919) % 10007; Map.add(m, Nat.compare, k, i); Set.add(s, Nat.compare, k) };
for (i in Nat.range(0, 550)) { let k = (i * 4111) % 10007; ignore Map.delete(m, Nat.compare, (k * 7919) % 10007); ignore Set.delete(s, Nat.compare, (k * 7919) % 1007) };
Debug.print(debug_show (Map.size(m), Set.size(s)));
Debug.print(debug_show m);
Debug.print(debug_show s);
for (i in Nat.range(0, 500)) { let k = (i * 7919) % 10007; Map.add(m, Nat.compare, k, i); Set.add(s, Nat.compare, k) };
for (i in Nat.range(0, 500)) { ignore Map.delete(m, Nat.compare, i * 2); ignore Set.delete(s, Nat.compare, i * 2 + 1) };
Debug.print(debug_show (Map.size(m), Set.size(s)));
Debug.print(debug_show s);
let t = Set.empty<Nat>();
for (i in Nat.range(0, 700)) { Set.add(t, Nat.compare, 700 - i) };
for (i in Nat.range(0, 300)) { ignore Set.delete(t, Nat.compare, (i * 11) % 701) };
Debug.print(debug_show t);
for (i in Nat.range(0, 350)) { Set.remove(t, Nat.compare, 2 * i) };
Debug.print(debug_show t);
