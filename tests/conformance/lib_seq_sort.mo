// Sorting calls `compare` as mo:core's sort does (insertion sort up to 8 elements, then its
// merge sort): the same calls in the same order, seen by a comparator that logs them, and
// the same order from a comparator that answers at random; stable for equal elements.
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import VarArray "mo:core/VarArray";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
import Text "mo:core/Text";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

// a deterministic pseudo-random array of n elements
func data(n : Nat, seed : Nat) : [Nat] = Array.tabulate<Nat>(n, func i = (i * 7919 + seed * 104729) % 23);

for (n in [0, 1, 2, 3, 5, 8, 9, 12, 16, 17, 25, 33, 64, 100].vals()) {
  var log = 0;
  var calls = 0;
  let xs = data(n, n);
  let sorted = Array.sort<Nat>(xs, func(a, b) { calls += 1; log := (log * 31 + a * 23 + b) % 1_000_000_007; Nat.compare(a, b) });
  show(debug_show n, debug_show (calls, log, Array.isSorted<Nat>(sorted, Nat.compare)))
};

// every size up to 80 sorts to the same elements in order (each path of the merge sort)
var bad = "";
for (n in Nat.range(0, 81)) {
  let xs = data(n, 2 * n + 1);
  let sorted = Array.sort<Nat>(xs, Nat.compare);
  let counts = VarArray.repeat<Int>(0, 23);
  for (x in xs.vals()) { counts[x] += 1 };
  for (x in sorted.vals()) { counts[x] -= 1 };
  if (not Array.isSorted<Nat>(sorted, Nat.compare) or VarArray.any<Int>(counts, func c = c != 0)) {
    bad #= debug_show n # " "
  }
};
show("sizes 0-80", if (bad == "") "all sorted" else bad);

// the calls themselves, for a small and a merge-sorted array
var trace = "";
ignore Array.sort<Nat>([3, 1, 2, 5, 4], func(a, b) { trace #= Nat.toText(a) # Nat.toText(b) # " "; Nat.compare(a, b) });
show("trace 5", trace);
trace := "";
ignore Array.sort<Nat>([9, 3, 7, 1, 8, 2, 6, 4, 5, 0, 11, 10], func(a, b) { trace #= Nat.toText(a) # "/" # Nat.toText(b) # " "; Nat.compare(a, b) });
show("trace 12", trace);

// a comparator answering by a counter: the order only follows from core's exact calls
for (n in [4, 8, 9, 20, 40].vals()) {
  var k = 0;
  func coin(a : Nat, b : Nat) : { #less; #equal; #greater } {
    k += 1;
    switch (k * 5 % 3) { case 0 #less; case 1 #greater; case _ #equal }
  };
  let xs = Array.tabulate<Nat>(n, func i = i);
  show("coin " # debug_show n, debug_show (Array.sort<Nat>(xs, coin)))
};

// stability: equal keys keep their order
let words = ["pear", "fig", "apple", "kiwi", "plum", "date", "lime", "yuzu", "nut", "pea", "bean", "corn", "leek"];
show("stable", debug_show (Array.sort<Text>(words, func(a, b) = Nat.compare(a.size(), b.size()))));

// every sort of core goes the same way
let v : [var Nat] = VarArray.fromArray<Nat>(data(20, 3));
var c1 = 0;
var c2 = 0;
var c3 = 0;
let viaVar = VarArray.sort<Nat>(v, func(a, b) { c1 += 1; Nat.compare(a, b) });
let viaIter = Iter.toArray(Iter.sort<Nat>(v.vals(), func(a, b) { c2 += 1; Nat.compare(a, b) }));
VarArray.sortInPlace<Nat>(v, func(a, b) { c3 += 1; Nat.compare(a, b) });
show("all sorts", debug_show (c1, c2, c3, Array.fromVarArray(viaVar) == viaIter, Array.fromVarArray(v) == viaIter));
