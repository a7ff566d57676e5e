// Recursive and aliased type declarations: Nat literals and values become Int where the
// declared type says so, at every depth, through aliases and shared parts.
import Debug "mo:core/Debug";

type T = { #leaf : Int; #pair : (T, T); #two : (T, T) };
var t : T = #leaf 1;
var i = 0;
while (i < 2) { t := #pair(t, t); i += 1 };
let u : T = t;
Debug.print(debug_show u);

type L = ?(Int, L);
var l : L = null;
var j = 0;
while (j < 3) { l := ?(j, l); j += 1 };
Debug.print(debug_show l);

type A = B;
type B = C;
type C = ?Int;
let a : A = ?5;
Debug.print(debug_show a);

type Tree = { #node : (Tree, Int, Tree); #empty };
func insert(t : Tree, x : Nat) : Tree {
  switch t {
    case (#empty) #node(#empty, x, #empty);
    case (#node(l, y, r)) {
      if (x < y) #node(insert(l, x), y, r) else #node(l, y, insert(r, x))
    };
  }
};
var tree : Tree = #empty;
for (x in [5, 2, 8, 1].vals()) { tree := insert(tree, x) };
Debug.print(debug_show tree);

type Rec = { x : Int; next : ?Rec };
let r : Rec = { x = 1; next = ?{ x = 2; next = ?{ x = 3; next = null } } };
Debug.print(debug_show r);

type Pair = (Int, Nat);
type Pairs = [Pair];
let ps : Pairs = [(1, 1), (2, 2)];
Debug.print(debug_show ps);
