// several instances of a class, each with its own `public var`, kept in an array
import Debug "mo:core/Debug";
import Array "mo:core/Array";
class Counter(name : Text) {
  public var n = 0;
  public func show() : Text { name # "=" # debug_show n };
};
let cs = Array.tabulate<Counter>(3, func i = Counter("c" # debug_show i));
for (i in cs.keys()) { cs[i].n += i * 2 };
cs[0].n := 100;
Debug.print(debug_show Array.map<Counter, Text>(cs, func c = c.show()));
