import Debug "mo:core/Debug";
type Tree = { #leaf; #node : (Tree, Nat, Tree) };
func ins(t : Tree, x : Nat) : Tree { switch t { case (#leaf) #node(#leaf, x, #leaf); case (#node(l, v, r)) if (x < v) #node(ins(l, x), v, r) else #node(l, v, ins(r, x)) } };
func walk(t : Tree) : Text { switch t { case (#leaf) ""; case (#node(l, v, r)) walk(l) # debug_show v # " " # walk(r) } };
var t : Tree = #leaf;
for (x in [5, 3, 8, 1, 4].vals()) { t := ins(t, x) };
Debug.print(walk(t));
