// Manual, "Generics": generic functions and types, explicit and inferred instantiation.
import Debug "mo:core/Debug";
func swap<A, B>(p : (A, B)) : (B, A) { (p.1, p.0) };
Debug.print(debug_show (swap<Nat, Text>((1, "one")), swap((true, 'c'))));
type Pair<T> = (T, T);
func both<T>(x : T) : Pair<T> { (x, x) };
Debug.print(debug_show (both<Int>(-1), both("z")));
func apply<T, U>(xs : [T], f : T -> U) : [U] {
  var out : [U] = [];
  for (x in xs.vals()) { out := [f x] };
  out
};
Debug.print(debug_show (apply<Nat, Text>([1, 2], func n = debug_show (n * n))));
type Tree<T> = { #leaf; #node : (Tree<T>, T, Tree<T>) };
func size<T>(t : Tree<T>) : Nat { switch t { case (#leaf) 0; case (#node(l, _, r)) size l + 1 + size r } };
let t : Tree<Text> = #node(#node(#leaf, "a", #leaf), "b", #leaf);
Debug.print(debug_show (size t));
