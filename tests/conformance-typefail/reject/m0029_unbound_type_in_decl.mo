type Tree = { #leaf; #node : (Tree, Nat, Tre) };
let t : Tree = #leaf;
t
