// mo:core VarArray functions: copies and in-place changes (clone, mapInPlace,
// reverseInPlace, sort), searching, slices and ranges, joins, compare/equal/isSorted.
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
import Array "mo:core/Array";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
import Text "mo:core/Text";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

let a : [var Nat] = [var 5, 1, 4, 1, 3];
let c = VarArray.clone(a);
c[0] := 50;
show("clone", debug_show (a, c, VarArray.clone<Nat>([var])));
show("singleton", debug_show (VarArray.singleton<Text>("x")));
show("concat", debug_show (VarArray.concat<Nat>(a, [var 7, 8]), VarArray.concat<Nat>([var], [var])));
show("flatten", debug_show (VarArray.flatten<Nat>([var [var 1, 2], [var], [var 3]]), VarArray.flatten<Nat>([var])));
show("flatMap", debug_show (VarArray.flatMap<Nat, Text>(a, func n = Iter.repeat<Text>(Nat.toText(n), n % 3))));
show("join", debug_show (VarArray.join<Nat>([[var 1], [var 2, 3]].vals()), VarArray.join<Nat>(Iter.empty<[var Nat]>())));
show("mapEntries", debug_show (VarArray.mapEntries<Nat, Nat>(a, func(x, i) = x * 10 + i)));
func checked(n : Nat) : { #ok : Text; #err : Nat } = if (n < 5) #ok(Nat.toText(n)) else #err(n);
show("mapResult", debug_show (VarArray.mapResult<Nat, Text, Nat>([var 1, 2], checked), VarArray.mapResult<Nat, Text, Nat>([var 1, 7, 9], checked)));

let m : [var Nat] = [var 1, 2, 3, 4];
VarArray.mapInPlace<Nat>(m, func x = x * x);
show("mapInPlace", debug_show m);
// each element is read when its turn comes: a function that writes ahead is seen
VarArray.mapInPlace<Nat>(m, func x { if (x == 1) { m[2] := 100 }; x + 1 });
show("mapInPlace ahead", debug_show m);
let r : [var Text] = [var "a", "b", "c", "d"];
VarArray.reverseInPlace(r);
show("reverseInPlace", debug_show r);
let r1 : [var Nat] = [var];
VarArray.reverseInPlace(r1);
let r2 : [var Nat] = [var 1, 2, 3];
VarArray.reverseInPlace(r2);
show("reverseInPlace small", debug_show (r1, r2));
let rv = VarArray.reverse(a);
rv[0] := 0;
show("reverse", debug_show (a, rv));
let s = VarArray.sort<Nat>(a, Nat.compare);
show("sort", debug_show (a, s));

show("binarySearch", debug_show (VarArray.binarySearch<Nat>(s, Nat.compare, 4), VarArray.binarySearch<Nat>(s, Nat.compare, 2)));
let t : [var Text] = [var "x", "y", "x"];
show("indexOf family", debug_show (VarArray.lastIndexOf<Text>(t, Text.equal, "x"), VarArray.nextIndexOf<Text>(t, Text.equal, "x", 1), VarArray.prevIndexOf<Text>(t, Text.equal, "x", 2), VarArray.prevIndexOf<Text>(t, Text.equal, "y", 1)));
show("compare", debug_show (VarArray.compare<Nat>([var 1, 2], [var 1, 3], Nat.compare), VarArray.compare<Nat>([var 2], [var 1, 3], Nat.compare), VarArray.compare<Nat>([var], [var], Nat.compare)));
show("equal", debug_show (VarArray.equal<Nat>([var 1, 2], [var 1, 2], Nat.equal), VarArray.equal<Nat>([var 1], [var 1, 2], Nat.equal)));
show("isSorted", debug_show (VarArray.isSorted<Nat>(s, Nat.compare), VarArray.isSorted<Nat>(a, Nat.compare)));

let z : [var Nat] = [var 10, 11, 12, 13];
show("sliceToArray", debug_show (VarArray.sliceToArray<Nat>(z, 1, 3), VarArray.sliceToArray<Nat>(z, -3, -1), VarArray.sliceToArray<Nat>(z, 3, 0)));
show("sliceToVarArray", debug_show (VarArray.sliceToVarArray<Nat>(z, 0, 2), VarArray.sliceToVarArray<Nat>(z, -1, 10), VarArray.sliceToVarArray<Nat>(z, 5, 6)));
// a range reads the array as it is iterated
let it = VarArray.range<Nat>(z, 1, -1);
z[2] := 99;
show("range", debug_show (it.next(), it.next(), it.next()));
show("range all", debug_show (Iter.toArray(VarArray.range<Nat>(z, -100, 100))));

// contextual dot
show("dot", debug_show (z.clone(), z.sliceToArray(0, 1), z.isSorted(), z.lastIndexOf(99), z.mapEntries<Nat, Nat>(func(x, i) = i)));
z.reverseInPlace();
z.mapInPlace(func(x : Nat) : Nat = x + 1);
show("dot in place", debug_show (z, z.sort(), z.binarySearch(12)));
