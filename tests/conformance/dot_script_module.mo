// a Map-like module of the script's own: contextual dot and implicit arguments through it
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Order "mo:core/Order";
import Array "mo:core/Array";
module Assoc {
  public type Assoc<K, V> = { var entries : [(K, V)] };
  public func empty<K, V>() : Assoc<K, V> = { var entries = [] };
  public func add<K, V>(self : Assoc<K, V>, k : K, v : V, compare : (implicit : (K, K) -> Order.Order)) {
    let old = self.entries;
    var found = false;
    let updated = Array.map<(K, V), (K, V)>(old, func((k2, v2)) {
      if (compare(k, k2) == #equal) { found := true; (k, v) } else (k2, v2)
    });
    self.entries := if found updated else append(updated, (k, v));
  };
  public func get<K, V>(self : Assoc<K, V>, k : K, compare : (implicit : (K, K) -> Order.Order)) : ?V {
    for ((k2, v) in self.entries.vals()) { if (compare(k, k2) == #equal) return ?v };
    null
  };
  public func size<K, V>(self : Assoc<K, V>) : Nat = self.entries.size();
  func append<X>(xs : [X], x : X) : [X] = Array.concat(xs, [x]);
};
let ages = Assoc.empty<Text, Nat>();
ages.add("ada", 36);
ages.add("alan", 41);
ages.add("ada", 37);
Debug.print(debug_show (ages.size(), ages.get("ada"), ages.get("grace")));
let squares = Assoc.empty<Nat, Nat>();
for (i in Nat.range(0, 5)) { squares.add(i, i * i) };
Assoc.add(squares, 2, 40);
Debug.print(debug_show (squares.get(2), squares.get(4), Assoc.get(squares, 9), squares.size()));
