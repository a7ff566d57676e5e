// mo:core Array functions: binarySearch, compare, equal, isSorted, join, lastIndexOf,
// nextIndexOf, prevIndexOf, mapEntries, mapResult, range, sliceToArray, sliceToVarArray
// (negative indices count from the end, out-of-range ones are clamped).
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Text "mo:core/Text";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

let xs : [Nat] = [1, 3, 3, 3, 5, 8, 13];
show("binarySearch", debug_show (Array.binarySearch<Nat>(xs, Nat.compare, 5), Array.binarySearch<Nat>(xs, Nat.compare, 3), Array.binarySearch<Nat>(xs, Nat.compare, 0), Array.binarySearch<Nat>(xs, Nat.compare, 4), Array.binarySearch<Nat>(xs, Nat.compare, 99), Array.binarySearch<Nat>([], Nat.compare, 1)));
var probes = "";
ignore Array.binarySearch<Nat>(xs, func(a, b) { probes #= Nat.toText(a) # " "; Nat.compare(a, b) }, 12);
show("binarySearch probes", probes);

show("compare", debug_show (Array.compare<Nat>([1, 2], [1, 3], Nat.compare), Array.compare<Nat>([1, 2], [1, 2], Nat.compare), Array.compare<Nat>([1, 2, 0], [1, 2], Nat.compare), Array.compare<Nat>([], [0], Nat.compare), Array.compare<Nat>([9], [1, 1], Nat.compare)));
show("equal", debug_show (Array.equal<Nat>([1, 2], [1, 2], Nat.equal), Array.equal<Nat>([1, 2], [1, 2, 3], Nat.equal), Array.equal<Text>(["a"], ["b"], Text.equal), Array.equal<Nat>([], [], Nat.equal)));
var eqs = 0;
ignore Array.equal<Nat>([1, 2, 3, 4], [1, 9, 3, 4], func(a, b) { eqs += 1; a == b });
ignore Array.equal<Nat>([1, 2, 3], [1, 2], func(a, b) { eqs += 100; a == b });
show("equal calls", debug_show eqs);
show("isSorted", debug_show (Array.isSorted<Nat>(xs, Nat.compare), Array.isSorted<Nat>([2, 1], Nat.compare), Array.isSorted<Nat>([], Nat.compare), Array.isSorted<Nat>([4], Nat.compare), Array.isSorted<Int>([3, 2, 1], func(a, b) = Int.compare(b, a))));
show("join", debug_show (Array.join<Nat>([[1, 2], [], [3]].vals()), Array.join<Nat>(Iter.empty<[Nat]>())));

let ys : [Text] = ["a", "b", "a", "c", "a"];
show("lastIndexOf", debug_show (Array.lastIndexOf<Text>(ys, Text.equal, "a"), Array.lastIndexOf<Text>(ys, Text.equal, "z"), Array.lastIndexOf<Text>([], Text.equal, "a")));
show("nextIndexOf", debug_show (Array.nextIndexOf<Text>(ys, Text.equal, "a", 0), Array.nextIndexOf<Text>(ys, Text.equal, "a", 1), Array.nextIndexOf<Text>(ys, Text.equal, "a", 5), Array.nextIndexOf<Text>(ys, Text.equal, "a", 1000), Array.nextIndexOf<Text>(ys, Text.equal, "c", 4)));
show("prevIndexOf", debug_show (Array.prevIndexOf<Text>(ys, Text.equal, "a", 5), Array.prevIndexOf<Text>(ys, Text.equal, "a", 4), Array.prevIndexOf<Text>(ys, Text.equal, "a", 0), Array.prevIndexOf<Text>(ys, Text.equal, "b", 1)));

show("mapEntries", debug_show (Array.mapEntries<Text, Text>(ys, func(y, i) = y # Nat.toText(i)), Array.mapEntries<Nat, Nat>([], func(x, i) = x + i)));
func half(n : Nat) : { #ok : Nat; #err : Text } = if (n % 2 == 0) #ok(n / 2) else #err("odd " # Nat.toText(n));
show("mapResult", debug_show (Array.mapResult<Nat, Nat, Text>([2, 4, 6], half), Array.mapResult<Nat, Nat, Text>([2, 3, 5], half), Array.mapResult<Nat, Nat, Text>([], half)));
var visited = "";
let r = Array.mapResult<Nat, Nat, Text>([1, 2, 3, 4], func n { visited #= Nat.toText(n); half(n) });
show("mapResult visits", visited # " " # debug_show r);

let zs : [Nat] = [10, 11, 12, 13, 14];
for ((f, t) in [(1, 3), (0, 5), (-2, 5), (-9, -1), (3, 1), (7, 9), (2, 2), (-1, 100), (0, -5)].vals()) {
  show(
    "slices " # debug_show (f, t),
    debug_show (Iter.toArray(Array.range<Nat>(zs, f, t)), Array.sliceToArray<Nat>(zs, f, t), Array.sliceToVarArray<Nat>(zs, f, t))
  )
};
show("slices empty", debug_show (Array.sliceToArray<Nat>([], -1, 1), Iter.toArray(Array.range<Nat>([], 0, 3))));

// contextual dot
show("dot", debug_show (xs.binarySearch(8), xs.isSorted(), [1, 2].compare([1, 2]), ys.lastIndexOf("c"), zs.sliceToArray(-3, -1), zs.range(3, 10).toArray(), [[1], [2, 3]].vals().join()));
show("dot more", debug_show ([1, 2].equal([1, 2]), ys.nextIndexOf("a", 3), ys.prevIndexOf("b", 5), zs.mapEntries(func(z : Nat, i : Nat) : Nat = z * i)));
