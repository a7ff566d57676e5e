// debug_show at the static type: a Nat stored into an Int place that held no Int shows
// as an Int, a `+` on a Nat is an Int, and a record made Int by an annotation still shows
// as the Nat record it is under its own name.
import Debug "mo:core/Debug";
type R = { var o : ?Int; k : Nat };
let r : R = { var o = null; k = 2 };
r.o := ?4;
Debug.print(debug_show r.o);
Debug.print(debug_show r);
var v : { #a : Int; #b } = #b;
v := #a 3;
let arr : [var ?Int] = [var null, null];
arr[1] := ?5;
Debug.print(debug_show (v, arr));
let n = 4;
Debug.print(debug_show (+n, -n, +(4), +4, n));
let q = { a = 1 };
let q2 : { a : Int } = q;
Debug.print(debug_show (q, q2));
class Counter() {
  public var last : ?Int = null;
  public func set(x : Nat) { last := ?x };
};
let c = Counter();
c.set(9);
Debug.print(debug_show (c.last, { total = (c.last : ?Int) }));
func f(o : ?Int) : Text { debug_show o };
Debug.print(f(?n));
