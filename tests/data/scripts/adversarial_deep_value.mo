// A long list built under a recursive type, then converted whole at an annotation.
type L = ?(Int, L);
type N = ?(Nat, N);
var l : N = null;
var i = 0;
while (i < 1_000_000) { l := ?(i, l); i += 1 };
let m : L = l;
0
