import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
module Inventory {
  public class Store() {
    let stock = Map.empty<Text, Nat>();
    public func add(item : Text, n : Nat) {
      let have = switch (Map.get(stock, Text.compare, item)) { case (?k) k; case null 0 };
      Map.add(stock, Text.compare, item, have + n);
    };
    public func count(item : Text) : Nat {
      switch (Map.get(stock, Text.compare, item)) { case (?k) k; case null 0 }
    };
    public func kinds() : Nat = Map.size(stock);
  };
  public func restock(s : Store) { s.add("apple", 10) };
};
let s = Inventory.Store();
s.add("apple", 3);
s.add("pear", 1);
Inventory.restock(s);
Debug.print(debug_show (s.count("apple"), s.count("pear"), s.count("fig"), s.kinds()));
