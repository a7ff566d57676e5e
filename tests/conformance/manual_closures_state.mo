// Closures capture variables by reference; each call of a maker gets fresh state.
import Debug "mo:core/Debug";
func makeCounter(start : Nat) : (() -> Nat, () -> ()) {
  var n = start;
  (func() : Nat { n }, func() { n += 1 })
};
let (get1, inc1) = makeCounter(0);
let (get2, inc2) = makeCounter(100);
inc1(); inc1(); inc2();
Debug.print(debug_show (get1(), get2()));
var fs : [() -> Nat] = [];
for (i in [1, 2, 3].vals()) { fs := [func() : Nat { i * 10 }] };
Debug.print(debug_show (fs[0]()));
let compose = func(f : Nat -> Nat, g : Nat -> Nat) : Nat -> Nat { func x = f(g x) };
let inc = func(x : Nat) : Nat { x + 1 };
let dbl = func(x : Nat) : Nat { x * 2 };
Debug.print(debug_show (compose(inc, dbl)(5), compose(dbl, inc)(5)));
