// two closures sharing one private variable, exposed as an object's methods
import Debug "mo:core/Debug";
func makePair() : { inc : () -> Nat; dec : () -> Nat; reset : () -> () } {
  var n = 0;
  { inc = func() : Nat { n += 1; n }; dec = func() : Nat { if (n > 0) n -= 1; n }; reset = func() { n := 0 } }
};
let p = makePair();
let q = makePair();
ignore p.inc(); ignore p.inc();
ignore q.dec();
Debug.print(debug_show (p.inc(), p.dec(), q.inc()));
p.reset();
Debug.print(debug_show (p.dec(), p.inc()));
