// mo:core Iter functions: zips, takeWhile/dropWhile, flatten/flatMap, reduce, scans, step,
// sort, unfold, infinite, repeat; lazy where core is lazy (a source that prints shows when
// it is read), endless sources read only as far as asked.
import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Text "mo:core/Text";

func show(what : Text, t : Text) { Debug.print(what # " " # t) };

// a source that says when an element is read
func loud(name : Text, xs : [Nat]) : Iter.Iter<Nat> {
  Iter.map<Nat, Nat>(xs.vals(), func x { Debug.print("  " # name # " reads " # Nat.toText(x)); x })
};

show("zip", debug_show (Iter.toArray(Iter.zip([1, 2, 3].vals(), ["a", "b"].vals()))));
show("zip3", debug_show (Iter.toArray(Iter.zip3([1, 2, 3].vals(), ['x', 'y', 'z'].vals(), [true, false, true, false].vals()))));
show("zipWith", debug_show (Iter.toArray(Iter.zipWith<Nat, Nat, Nat>([1, 2, 3].vals(), [10, 20, 30, 40].vals(), Nat.add))));
show("zipWith3", debug_show (Iter.toArray(Iter.zipWith3<Nat, Nat, Nat, Nat>([1, 2].vals(), [10, 20].vals(), [100, 200, 300].vals(), func(a, b, c) = a + b + c))));
// the second source is not read once the first ends
let z = Iter.zip(loud("a", [1, 2]), loud("b", [5, 6, 7]));
show("zip lazy", "made");
show("zip lazy", debug_show (Iter.toArray(z)));

show("takeWhile", debug_show (Iter.toArray(Iter.takeWhile<Nat>([1, 2, 5, 1, 2].vals(), func x = x < 3))));
let tw = Iter.takeWhile<Nat>(loud("tw", [1, 2, 9, 3]), func x = x < 5);
show("takeWhile lazy", debug_show (tw.next(), tw.next(), tw.next(), tw.next()));
show("dropWhile", debug_show (Iter.toArray(Iter.dropWhile<Nat>([1, 2, 5, 1, 2].vals(), func x = x < 3))));
let dw = Iter.dropWhile<Nat>(loud("dw", [1, 4, 1]), func x = x < 3);
show("dropWhile lazy", "made");
show("dropWhile lazy", debug_show (dw.next(), dw.next(), dw.next()));
let dr = Iter.drop<Nat>(loud("drop", [1, 2, 3]), 2);
show("drop lazy", "made");
show("drop lazy", debug_show (Iter.toArray(dr)));

show("flatten", debug_show (Iter.toArray(Iter.flatten([[1, 2].vals(), [].vals(), [3].vals()].vals()))));
show("flatMap", debug_show (Iter.toArray(Iter.flatMap<Nat, Nat>([1, 2, 3].vals(), func n = Iter.repeat(n, n)))));
let fm = Iter.flatMap<Nat, Text>(loud("fm", [1, 2]), func n = ["<" # Nat.toText(n), Nat.toText(n) # ">"].vals());
show("flatMap lazy", debug_show (fm.next()));
show("flatMap lazy", debug_show (Iter.toArray(fm)));
show("filterMap", debug_show (Iter.toArray(Iter.filterMap<Nat, Text>([1, 2, 3, 4].vals(), func n = if (n % 2 == 0) ?Nat.toText(n) else null))));
show("filterMap endless", debug_show (Iter.toArray(Iter.take(Iter.filterMap<Nat, Nat>(Iter.unfold<Nat, Nat>(0, func n = ?(n, n + 1)), func n = if (n % 3 == 0) ?n else null), 4))));

show("reduce", debug_show (Iter.reduce<Nat>([1, 2, 3, 4].vals(), Nat.add), Iter.reduce<Nat>([].vals(), Nat.add), Iter.reduce<Nat>([7].vals(), Nat.add)));
show("reduce order", debug_show (Iter.reduce<Text>(["a", "b", "c"].vals(), func(a, b) = "(" # a # b # ")")));
show("scanLeft", debug_show (Iter.toArray(Iter.scanLeft<Nat, Nat>([1, 2, 3].vals(), 0, Nat.add))));
show("scanLeft text", debug_show (Iter.toArray(Iter.scanLeft<Nat, Text>([1, 2, 3].vals(), "", func(acc, n) = acc # Nat.toText(n)))));
show("scanRight", debug_show (Iter.toArray(Iter.scanRight<Nat, Text>([1, 2, 3].vals(), "", func(n, acc) = Nat.toText(n) # acc))));
show("scan empty", debug_show (Iter.toArray(Iter.scanLeft<Nat, Nat>([].vals(), 5, Nat.add)), Iter.toArray(Iter.scanRight<Nat, Nat>([].vals(), 5, Nat.add))));
let sl = Iter.scanLeft<Nat, Nat>(loud("scan", [1, 2]), 100, Nat.add);
show("scanLeft lazy", debug_show (sl.next()));
show("scanLeft lazy", debug_show (sl.next(), sl.next(), sl.next()));

show("step", debug_show (Iter.toArray(Iter.step([0, 1, 2, 3, 4, 5, 6].vals(), 3)), Iter.toArray(Iter.step([0, 1, 2].vals(), 1)), Iter.toArray(Iter.step([0, 1, 2].vals(), 0))));
let st = Iter.step(loud("step", [0, 1, 2, 3, 4]), 2);
show("step lazy", debug_show (st.next()));
show("step lazy", debug_show (st.next(), st.next(), st.next()));

type Person = { name : Text; age : Nat };
let people : [Person] = [{ name = "c"; age = 30 }, { name = "a"; age = 20 }, { name = "d"; age = 30 }, { name = "b"; age = 20 }, { name = "e"; age = 10 }];
show("sort", debug_show (Iter.toArray(Iter.sort([5, 3, 8, 1, 9, 2].vals(), Nat.compare))));
show("sort stable", debug_show (Iter.toArray(Iter.map<Person, Text>(Iter.sort<Person>(people.vals(), func(a, b) = Nat.compare(a.age, b.age)), func p = p.name))));
show("sort empty", debug_show (Iter.toArray(Iter.sort<Nat>([].vals(), Nat.compare))));

show("unfold", debug_show (Iter.toArray(Iter.unfold<Nat, (Nat, Nat)>((0, 1), func((a, b)) = if (a > 50) null else ?(a, (b, a + b))))));
show("unfold endless", debug_show (Iter.toArray(Iter.take(Iter.unfold<Text, Text>("a", func s = ?(s, s # "a")), 4))));
show("infinite", debug_show (Iter.toArray(Iter.take(Iter.infinite<Text>("x"), 3))));
let inf = Iter.infinite<Nat>(7);
show("infinite next", debug_show (inf.next(), inf.next()));
show("infinite zip", debug_show (Iter.toArray(Iter.zip(Iter.infinite<Nat>(0), ["a", "b"].vals()))));
show("repeat", debug_show (Iter.toArray(Iter.repeat<Char>('z', 3)), Iter.toArray(Iter.repeat<Nat>(1, 0))));
show("repeat huge", debug_show (Iter.toArray(Iter.take(Iter.repeat<Nat>(2, 100_000_000_000_000_000_000_000), 2))));
show("takeWhile endless", debug_show (Iter.toArray(Iter.takeWhile<Nat>(Iter.unfold<Nat, Nat>(1, func n = ?(n, n * 2)), func n = n < 100))));
show("dropWhile endless", debug_show (Iter.toArray(Iter.take(Iter.dropWhile<Nat>(Iter.unfold<Nat, Nat>(1, func n = ?(n, n * 2)), func n = n < 100), 2))));

// contextual dot
show("dot", debug_show ([1, 2, 3].vals().zip(["x", "y"].vals()).toArray(), [3, 1, 2].vals().sort().toArray(), [1, 2, 3].vals().reduce(Nat.mul)));
show("dot lazy", debug_show (Iter.infinite<Nat>(1).scanLeft(0, Nat.add).take(5).toArray()));
