import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
import Order "mo:core/Order";
type Point = { x : Int; y : Int };
type Shape = { #circle : Nat; #rect : (Nat, Nat) };
func norm(p : Point) : Int = p.x * p.x + p.y * p.y;
let p : Point = { x = 3; y = -4; tag = "p" };
let q = { x = 3 : Int; y = -4 : Int; tag = "q" };
let s : Shape = #circle 2;
func widen(p : Point) : { x : Int } = p;
let xs : [Int] = [1, 2, 3];
let ys = Array.map<Int, Int>(xs, func x = x * 2);
let m = Map.empty<Nat, Int>();
m.add(1, 10);
m.add(2, -5);
Debug.print(debug_show (p == q, widen(p) == widen(q), norm(p), s));
Debug.print(debug_show (xs, ys, m.get(1), m.get(2)));
do {
  // a script `compare` on `Int` fits `(Nat, Nat) -> Order` too (parameters are contravariant)
  func compare(a : Int, b : Int) : Order.Order = Int.compare(b, a);
  Debug.print(debug_show (Array.sort([3, 1, 2]), Array.sort<Int>([3, 1, 2])));
};
let f : Float = 2;
let i : Int = 5;
let n8 : Nat8 = 200;
debug_show (f, i, n8 +% 100, [i, 1], ?i, (i, 2))
