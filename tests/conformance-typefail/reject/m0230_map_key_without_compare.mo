import Map "mo:core/Map";
type Key = { id : Nat };
let m = Map.empty<Key, Text>();
m.add({ id = 1 }, "one");
m.size()
