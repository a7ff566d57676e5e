type T = { #leaf; #node : (T, T, T) };
type U = { #leaf; #node : (U, U, U) };
let a : T = #node(#leaf, #leaf, #leaf);
let b : U = a;
func f(x : T) : U = x;
debug_show (a == b, f(a) == a)
