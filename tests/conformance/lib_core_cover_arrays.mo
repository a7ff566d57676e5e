// mo:core Array, VarArray and Iter functions not used elsewhere.
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import VarArray "mo:core/VarArray";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

let xs : [Nat] = [3, 1, 4, 1, 5, 9, 2, 6];
show("size", debug_show (Array.size(xs)));
show("filterMap", debug_show (Array.filterMap<Nat, Text>(xs, func x = if (x % 2 == 0) ?Nat.toText(x) else null)));
show("flatMap", debug_show (Array.flatMap<Nat, Nat>([1, 2, 3], func x = Iter.fromArray(Array.repeat<Nat>(x, x)))));
show("findIndex", debug_show (Array.findIndex<Nat>(xs, func x = x > 4), Array.findIndex<Nat>(xs, func x = x > 100)));
show("contains", debug_show (Array.contains<Nat>(xs, Nat.equal, 9), Array.contains<Nat>(xs, Nat.equal, 7)));
var total = 0;
Array.forEach<Nat>(xs, func x { total += x });
show("forEach", debug_show total);
show("values", debug_show (Iter.toArray(Array.values(xs))));
show("keys", debug_show (Iter.toArray(Array.keys(xs))));
show("empty", debug_show (Array.empty<Nat>()));
show("singleton", debug_show (Array.singleton<Text>("one")));

let vs : [var Nat] = VarArray.fromArray<Nat>([10, 20, 30]);
show("VarArray.size", debug_show (VarArray.size(vs)));
show("VarArray.foldLeft", debug_show (VarArray.foldLeft<Nat, Nat>(vs, 0, func(acc, x) = acc + x)));
show("VarArray.find", debug_show (VarArray.find<Nat>(vs, func x = x > 15)));
var seen = "";
VarArray.forEach<Nat>(vs, func x { seen #= Nat.toText(x) # ";" });
show("VarArray.forEach", seen);
show("VarArray.fromIter", debug_show (VarArray.fromIter<Nat>([7, 8].vals())));
show("VarArray.values", debug_show (Iter.toArray(VarArray.values(vs))));
show("VarArray.keys", debug_show (Iter.toArray(VarArray.keys(vs))));
show("VarArray.empty", debug_show (VarArray.empty<Nat>()));
show("VarArray.isEmpty", debug_show (VarArray.isEmpty(vs), VarArray.isEmpty(VarArray.empty<Nat>())));

show("toVarArray", debug_show (Iter.toVarArray<Nat>([1, 2, 3].vals())));
show("drop", debug_show (Iter.toArray(Iter.drop<Nat>(xs.vals(), 5))));
show("find", debug_show (Iter.find<Nat>(xs.vals(), func x = x == 5)));
show("fromArray", debug_show (Iter.toArray(Iter.fromArray<Nat>([4, 5]))));
show("fromVarArray", debug_show (Iter.toArray(Iter.fromVarArray<Nat>(vs))));
show("Iter.empty", debug_show (Iter.toArray(Iter.empty<Nat>())));
show("Iter.singleton", debug_show (Iter.toArray(Iter.singleton<Nat>(42))));
