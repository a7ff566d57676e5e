import Debug "mo:core/Debug";
module Geometry {
  public type Point = { x : Int; y : Int };
  let origin : Point = { x = 0; y = 0 };
  public func dist2(p : Point) : Int = (p.x - origin.x) ** 2 + (p.y - origin.y) ** 2;
  public let unit : Point = { x = 1; y = 0 };
  public module Inner { public func twice(n : Nat) : Nat = n * 2 };
};
Debug.print(debug_show (Geometry.dist2({ x = 3; y = 4 }), Geometry.unit, Geometry.Inner.twice(21)));
class Stack<T>(capacity : Nat) {
  var items : [var ?T] = [var];
  var n = 0;
  public func push(x : T) { n += 1; ignore capacity; items := [var ?x] };
  public func size() : Nat = n;
  public func top() : ?T = if (items.size() == 0) null else items[0];
};
let s = Stack<Text>(4);
s.push("a"); s.push("b");
Debug.print(debug_show (s.size(), s.top()));
let acc = object {
  var total = 0;
  public func add(k : Nat) : Nat { total += k; total };
  public let (lo, hi) = (1, 9);
};
ignore acc.add(5);
Debug.print(debug_show (acc.add(6), acc.lo, acc.hi));
func makeCounter() : { inc : () -> Nat } {
  var c = 0;
  object { public func inc() : Nat { c += 1; c } }
};
let c1 = makeCounter(); let c2 = makeCounter();
ignore c1.inc();
Debug.print(debug_show (c1.inc(), c2.inc()));
object Tally { var n = 0; public func inc() : Nat { n += 1; n } };
ignore Tally.inc();
Debug.print(debug_show Tally.inc());
