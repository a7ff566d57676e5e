import Debug "mo:core/Debug";
type List = ?(Nat, List);
func build(n : Nat) : List {
  var l : List = null;
  var i = n;
  while (i > 0) { l := ?(i, l); i -= 1 };
  l
};
let a = build(50);
let b = build(50);
let c = build(49);
Debug.print(debug_show (a == b, a == c, build(0) == null));
type Tree = { #leaf; #node : (Tree, Nat, Tree) };
let t1 : Tree = #node(#node(#leaf, 1, #leaf), 2, #leaf);
let t2 : Tree = #node(#node(#leaf, 1, #leaf), 2, #leaf);
let t3 : Tree = #node(#leaf, 2, #node(#leaf, 1, #leaf));
Debug.print(debug_show (t1 == t2, t1 == t3));
