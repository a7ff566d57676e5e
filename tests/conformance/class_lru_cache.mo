// a small LRU cache class: a Map for values and an array for the order of use
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Array "mo:core/Array";
import Text "mo:core/Text";

class Lru(capacity : Nat) {
  let values = Map.empty<Text, Nat>();
  var order : [Text] = [];
  public var evictions = 0;
  func touch(k : Text) {
    order := Array.concat(Array.filter<Text>(order, func x = x != k), [k]);
  };
  public func put(k : Text, v : Nat) {
    Map.add(values, Text.compare, k, v);
    touch(k);
    if (order.size() > capacity) {
      let old = order[0];
      ignore Map.remove(values, Text.compare, old);
      order := Array.sliceToArray<Text>(order, 1, order.size());
      evictions += 1;
    };
  };
  public func get(k : Text) : ?Nat {
    let r = Map.get(values, Text.compare, k);
    if (r != null) touch(k);
    r
  };
  public func keys() : [Text] { order };
};

let c = Lru(2);
c.put("a", 1);
c.put("b", 2);
ignore c.get("a");
c.put("c", 3);
Debug.print(debug_show (c.get("a"), c.get("b"), c.get("c"), c.keys(), c.evictions));
