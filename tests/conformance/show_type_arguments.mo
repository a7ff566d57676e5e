// debug_show at the static type: explicit type arguments make a Nat argument an Int
// result (`id<Int>(5)` shows `+5`), in script functions and in mo:core's.
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import List "mo:core/List";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
func id<T>(x : T) : T { x };
func pair<A, B>(a : A, b : B) : (A, B) { (a, b) };
func single<T>(x : T) : [T] { [x] };
let n = 3;
Debug.print(debug_show (id<Int>(n), id<?Int>(?n), pair<Int, Nat>(n, n), single<Int>(n)));
Debug.print(debug_show (id<Nat>(n), id(n), [id<Int>(1), 2]));
let xs = Array.map<Nat, Int>([1, 2], func x = x);
let zs = Array.tabulate<Int>(3, func i = i);
let l = List.empty<Int>();
List.add(l, n);
List.add(l, 0);
Debug.print(debug_show (xs, zs, List.toArray(l)));
let m = Map.empty<Nat, Int>();
Map.add(m, Nat.compare, 1, n);
Debug.print(debug_show (Map.get(m, Nat.compare, 1), Map.get(m, Nat.compare, 2)));
class Box<T>(x : T) { public func get() : T { x } };
let b = Box<Int>(7);
Debug.print(debug_show (b.get(), Box<Nat>(7).get()));
