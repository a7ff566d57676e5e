// `public var` fields of option, tuple and array types assigned from outside
import Debug "mo:core/Debug";

object cache {
  public var last : ?Text = null;
  public var pair : (Nat, Text) = (0, "");
  public var recent : [Nat] = [];
  public func put(k : Nat, v : Text) { last := ?v; pair := (k, v); recent := [k] };
};

cache.put(3, "three");
Debug.print(debug_show (cache.last, cache.pair, cache.recent));
cache.last := null;
cache.pair := (cache.pair.0 + 1, cache.pair.1 # "!");
cache.recent := [1, 2, 3];
Debug.print(debug_show (cache.last, cache.pair, cache.recent));
switch (cache.last) { case null Debug.print("empty"); case (?t) Debug.print(t) };
