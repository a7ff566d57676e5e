// Values built from Nat literals at the Int places of generic recursive types show as
// Ints at every depth, at an annotation and in debug_show (each application of a
// generic type is one type, however deep the value).
import Debug "mo:core/Debug";

type L<T> = ?(T, L<T>);
type Tree<K, V> = { #node : (Tree<K, V>, K, V, Tree<K, V>); #leaf };
type Even<T> = ?(T, Odd<T>);
type Odd<T> = ?(T, Even<T>);
type Pair<A, B> = (A, B);
type Rose<T> = { value : T; kids : [Rose<T>] };

var l : L<Nat> = null;
var i = 0;
while (i < 40) { i += 1; l := ?(i, l) };
let m : L<Int> = l;
Debug.print(debug_show m);

func ins(t : Tree<Nat, Int>, k : Nat, v : Int) : Tree<Nat, Int> = switch t {
  case (#leaf) #node(#leaf, k, v, #leaf);
  case (#node(a, k2, v2, b)) if (k < k2) #node(ins(a, k, v), k2, v2, b) else #node(a, k2, v2, ins(b, k, v));
};
var t : Tree<Nat, Int> = #leaf;
for (k in [50, 30, 80, 10, 40, 70, 90, 20, 60, 5, 15, 25, 35, 45, 55, 65, 75, 85, 95].vals()) { t := ins(t, k, k) };
Debug.print(debug_show t);

let e : Even<Int> = ?(1, ?(2, ?(3, ?(4, ?(5, ?(6, ?(7, ?(8, ?(9, ?(10, ?(11, ?(12, ?(13, ?(14, null))))))))))))));
Debug.print(debug_show e);

let p : Pair<L<Int>, Nat> = (?(1, ?(2, null)), 3);
Debug.print(debug_show p);

func rose(n : Nat) : Rose<Int> = { value = n; kids = if (n == 0) [] else [rose(n - 1), rose(n - 1)] };
Debug.print(debug_show (rose(3)));
