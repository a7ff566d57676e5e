// A recursive variant through several tuples (was exponential in the engine's type handling).
type T = { #leaf : Int; #c0 : (T, T); #c1 : (T, T); #c2 : (T, T); #c3 : (T, T); #c4 : (T, T); #c5 : (T, T) };
let t : T = #c1(#leaf 1, #c0(#leaf 2, #leaf 0));
t
