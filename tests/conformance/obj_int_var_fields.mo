// `public var` fields of type Int keep printing as Int after assignments of Nat literals
import Debug "mo:core/Debug";

class Thermostat(start : Int) {
  public var current = start;
  public var target : Int = 20;
  public func step() { if (current < target) current += 1 else if (current > target) current -= 1 };
};

let t = Thermostat(-3);
t.step();
Debug.print(debug_show (t.current, t.target));
t.current := 25;
t.target := 22;
t.step();
t.step();
Debug.print(debug_show (t.current, t.target));
var reading = t.current;
reading := 7;
Debug.print(debug_show reading);
