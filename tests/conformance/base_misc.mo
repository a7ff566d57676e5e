// mo:base modules where base differs from mo:core: base's argument orders and names.
import Array "mo:base/Array";
import Iter "mo:base/Iter";
import Option "mo:base/Option";
import Result "mo:base/Result";
import Float "mo:base/Float";
import Bool "mo:base/Bool";
import Hash "mo:base/Hash";
import Int "mo:base/Int";
import Nat "mo:base/Nat";
import Text "mo:base/Text";
import Blob "mo:base/Blob";
import Char "mo:base/Char";
import List "mo:base/List";
import Debug "mo:base/Debug";

let xs = [5, 3, 5, 1, 3, 5];
Debug.print(debug_show (Array.indexOf<Nat>(3, xs, Nat.equal), Array.indexOf<Nat>(7, xs, Nat.equal), Array.indexOf<Nat>(1, [], Nat.equal)));
Debug.print(debug_show (Array.lastIndexOf<Nat>(5, xs, Nat.equal), Array.lastIndexOf<Nat>(7, xs, Nat.equal)));
Debug.print(debug_show (Array.nextIndexOf<Nat>(5, xs, 1, Nat.equal), Array.nextIndexOf<Nat>(5, xs, 6, Nat.equal), Array.nextIndexOf<Nat>(5, xs, 60, Nat.equal)));
Debug.print(debug_show (Array.prevIndexOf<Nat>(5, xs, 5, Nat.equal), Array.prevIndexOf<Nat>(5, xs, 0, Nat.equal), Array.prevIndexOf<Nat>(3, xs, 6, Nat.equal)));
Debug.print(debug_show Array.indexOf<Nat>(3, xs, func(a, b) { Debug.print(debug_show (a, b)); a == b }));
Debug.print(debug_show Array.chain<Nat, Nat>([1, 2, 3], func x = Array.tabulate<Nat>(x, func i = x * 10 + i)));
Debug.print(debug_show (Array.chain<Nat, Nat>([], func x = [x]), Array.mapFilter<Nat, Nat>(xs, func x = if (x > 2) ?x else null)));
Debug.print(debug_show (Array.make<Text>("m"), Array.take(xs, 2), Array.take(xs, -2), Array.take(xs, 0), Array.take(xs, 100), Array.take(xs, -100), Array.take<Nat>([], -1)));
Debug.print(debug_show (Iter.toArray(Array.slice<Nat>(xs, 1, 4)), Iter.toArray(Array.slice<Nat>(xs, 4, 1)), Iter.toArray(Array.slice<Nat>(xs, 6, 6))));
Debug.print(debug_show (Array.flatten<Nat>([[1], [], [2, 3]]), Array.append<Nat>([1], [2]), Array.vals(xs).next()));

Iter.iterate<Text>(["a", "b", "c"].vals(), func(x, i) = Debug.print(x # debug_show i));
let forever = Iter.make<Nat>(7);
Debug.print(debug_show (forever.next(), forever.next(), Iter.toArray(Iter.fromList<Nat>(List.fromArray<Nat>([4, 5])))));
Debug.print(debug_show (Iter.toList<Nat>(xs.vals()), Iter.toList<Nat>([].vals()), Iter.toArrayMut<Nat>(Iter.fromArrayMut<Nat>([var 1, 2]))));

Option.iterate<Nat>(?3, func x = Debug.print("some " # debug_show x));
Option.iterate<Nat>(null, func x = Debug.print("none " # debug_show x));
Option.assertSome(?1);
Option.assertNull(null);
Debug.print(debug_show (Option.make<Nat>(2), Option.getMapped<Nat, Text>(?2, func x = debug_show x, "d"), Option.getMapped<Nat, Text>(null, func x = debug_show x, "d")));
Debug.print(debug_show (Option.equal<Nat>(?1, ?1, Nat.equal), Option.equal<Nat>(?1, null, Nat.equal), Option.equal<Nat>(null, null, Nat.equal), Option.apply<Nat, Nat>(?3, ?(func x = x + 1)), Option.apply<Nat, Nat>(null, ?(func x = x + 1))));
Debug.print(debug_show (Option.get<Nat>(null, 4), Option.isSome(?1), Option.isNull(?1), Option.map<Nat, Nat>(?1, func x = x * 2), Option.chain<Nat, Nat>(?1, func x = ?(x + 1))));

type Res = Result.Result<Nat, Text>;
let ok1 : Res = #ok 1;
let ok2 : Res = #ok 2;
let er : Res = #err "e";
Debug.print(debug_show (Result.equal<Nat, Text>(Nat.equal, Text.equal, ok1, ok1), Result.equal<Nat, Text>(Nat.equal, Text.equal, ok1, ok2), Result.equal<Nat, Text>(Nat.equal, Text.equal, ok1, er), Result.equal<Nat, Text>(Nat.equal, Text.equal, er, er)));
Debug.print(debug_show (Result.compare<Nat, Text>(Nat.compare, Text.compare, ok1, ok2), Result.compare<Nat, Text>(Nat.compare, Text.compare, ok1, er), Result.compare<Nat, Text>(Nat.compare, Text.compare, er, ok1), Result.compare<Nat, Text>(Nat.compare, Text.compare, er, #err "a")));
Result.iterate<Nat, Text>(ok2, func x = Debug.print("ok " # debug_show x));
Result.iterate<Nat, Text>(er, func x = Debug.print("ok " # debug_show x));
Debug.print(debug_show (Result.isOk(ok1), Result.mapOk<Nat, Nat, Text>(ok1, func x = x + 1), Result.toOption(er), Result.fromOption<Nat, Text>(null, "none")));

let nan = 0.0 / 0.0;
Debug.print(debug_show (Float.equal(1.0, 1.0), Float.equal(nan, nan), Float.equal(0.0, -0.0), Float.notEqual(1.0, 2.0), Float.notEqual(nan, nan)));
Debug.print(debug_show (Float.equalWithin(1.0, 1.05, 0.1), Float.equalWithin(1.0, 1.2, 0.1), Float.equalWithin(1.0 / 0.0, 1.0 / 0.0, 0.0), Float.notEqualWithin(1.0, 1.2, 0.1), Float.equalWithin(nan, nan, 1.0)));
Debug.print(debug_show (Float.abs(-2.5), Float.sqrt(16.0), Float.toText(0.1), Float.min(1.0, 2.0)));

Debug.print(debug_show (Bool.logand(true, false), Bool.logor(true, false), Bool.logxor(true, true), Bool.lognot(false), Bool.toText(true), Bool.compare(false, true)));

Debug.print(debug_show (Hash.hash(0), Hash.hash(1), Hash.hash(255), Hash.hash(256), Hash.hash(4294967295), Hash.hash(4294967296), Hash.hash(123456789012345678901234567890)));
Debug.print(debug_show (Hash.equal(1, 1), Hash.equal(1, 2), Hash.bit(5, 0), Hash.bit(5, 1), Hash.bit(2147483648, 31), Hash.length, Hash.hashNat8([1, 2, 3]), Hash.hashNat8([])));
Debug.print(debug_show (Int.hash(0), Int.hash(-1), Int.hash(1), Int.hash(-2147483649), Int.hash(-123456789012345678901234567890), Int.hashAcc(7, -5), Int.hashAcc(0, 0)));
Debug.print(debug_show (Int.abs(-3), Int.toText(-3), Int.neg(4), Int.max(1, 2)));

Debug.print(debug_show (Text.translate("abc", func c = if (c == 'b') "BB" else Char.toText(c)), Text.toLowercase("AbC"), Text.toUppercase("aBc")));
Debug.print(debug_show (Text.fromList(List.fromArray<Char>(['h', 'i'])), Text.toList("héllo"), Text.toList(""), Text.fromList(null)));
Debug.print(debug_show (Text.join(", ", ["a", "b", "c"].vals()), Text.hash("abc"), Text.concat("a", "b")));
Debug.print(debug_show (Blob.toArrayMut("\01\02"), Blob.fromArrayMut([var 3, 4]), Blob.toArray("\05")));
