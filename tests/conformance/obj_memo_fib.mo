// an object memoizing a recursive function in a mo:core Map
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";

object fib {
  let memo = Map.empty<Nat, Nat>();
  public var calls = 0;
  public func get(n : Nat) : Nat {
    calls += 1;
    if (n < 2) return n;
    switch (Map.get(memo, Nat.compare, n)) {
      case (?v) v;
      case null { let v = get(n - 1) + get(n - 2); Map.add(memo, Nat.compare, n, v); v };
    }
  };
};

Debug.print(debug_show fib.get(30));
Debug.print(debug_show fib.calls);
fib.calls := 0;
Debug.print(debug_show (fib.get(90), fib.calls));
