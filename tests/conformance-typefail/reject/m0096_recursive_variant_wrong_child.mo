type Tree = { #leaf : Nat; #node : (Tree, Tree) };
let bad = "x";
let t : Tree = #node(#leaf 1, bad);
t
