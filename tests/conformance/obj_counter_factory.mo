// a factory of counters: each object has its own `public var` and shares a global total
import Debug "mo:core/Debug";

var created = 0;
func counter(step : Nat) : { var value : Nat; tick : () -> Nat } {
  created += 1;
  object {
    public var value = 0;
    public func tick() : Nat { value += step; value };
  }
};

let a = counter(1);
let b = counter(10);
ignore a.tick();
ignore b.tick();
ignore a.tick();
b.value := b.value * 3;
Debug.print(debug_show (a.value, b.tick(), created));
