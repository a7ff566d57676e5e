// a generic box class with a `public var`, used at Int, options and records
import Debug "mo:core/Debug";
class Box<T>(init : T) {
  public var value = init;
  public var changes = 0;
  public func set(v : T) { value := v; changes += 1 };
  public func map(f : T -> T) { set(f(value)) };
};
let i = Box<Int>(-1);
i.map(func x = x * 10);
i.value := 3;
let o = Box<?Text>(null);
o.set(?"x");
let r = Box<{ a : Nat }>({ a = 1 });
r.map(func v = { a = v.a + 1 });
Debug.print(debug_show (i.value, i.changes, o.value, o.changes, r.value, r.changes));
