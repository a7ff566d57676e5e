// mo:base functions are typed from base's own signatures: a Nat literal passed where
// base's type says Int is an Int, and shows as one.
import Debug "mo:core/Debug";
import L "mo:base/List";
import A "mo:base/Array";
import O "mo:base/Option";
import I "mo:base/Iter";
import R "mo:base/Result";
import D "mo:base/Deque";

let l : L.List<Int> = L.push(5, L.nil());
let m = L.map<Int, Int>(l, func x = x);
Debug.print(debug_show (switch (l) { case (?(h, _)) h; case null 0 }, l, m, L.push(3, l)));
Debug.print(debug_show (L.fromArray<Int>([1, 2]), L.append<Int>(l, L.make(7)), L.get(l, 0)));
let a : [Int] = A.tabulate<Int>(3, func i = i);
Debug.print(debug_show (a, A.append<Int>(a, [9]), A.map<Int, Int>(a, func x = x)));
Debug.print(debug_show (O.get<Int>(null, 4), O.make<Int>(6), O.map<Nat, Int>(?2, func x = x)));
Debug.print(debug_show (I.toArray<Int>(I.fromArray<Int>([1, 2]))));
let r : R.Result<Int, Text> = #ok 3;
Debug.print(debug_show (r, R.mapOk<Int, Int, Text>(r, func x = x)));
let d = D.pushBack(D.pushFront(D.empty<Int>(), 1), 2);
Debug.print(debug_show (D.peekFront(d), D.peekBack(d)));
