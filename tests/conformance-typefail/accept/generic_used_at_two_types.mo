func pair<A, B>(a : A, b : B) : (B, A) { (b, a) };
let p = pair(1, "one");
let q = pair(true, -2);
debug_show (p, q)
