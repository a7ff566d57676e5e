// a class whose `public var` fields are seen through an object type; aliasing shows changes
import Debug "mo:core/Debug";

type Counter = { var count : Nat; inc : () -> (); get : () -> Nat };

class C(start : Nat) : Counter = this {
  public var count = start;
  public func inc() { this.count += 1 };
  public func get() : Nat { count };
};

let c = C(3);
c.inc();
c.inc();
let d : Counter = c;
d.count := 100;
d.inc();
Debug.print(debug_show (c.count, c.get(), d.get()));
let counters : [Counter] = [C(0), C(10), c];
for (k in counters.vals()) { k.inc(); k.count += 1 };
Debug.print(debug_show (counters[0].get(), counters[1].count, c.count));
