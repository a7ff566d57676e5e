// a class holding a mo:core Map, with methods that update and report it
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Text "mo:core/Text";

class Inventory() {
  let stock = Map.empty<Text, Nat>();
  public var operations = 0;

  public func receive(item : Text, n : Nat) {
    operations += 1;
    let have = switch (Map.get(stock, Text.compare, item)) { case (?k) k; case null 0 };
    Map.add(stock, Text.compare, item, have + n);
  };

  public func ship(item : Text, n : Nat) : Bool {
    operations += 1;
    switch (Map.get(stock, Text.compare, item)) {
      case (?k) if (k >= n) { Map.add(stock, Text.compare, item, k - n); true } else false;
      case null false;
    }
  };

  public func report() : [(Text, Nat)] { Map.toArray(stock) };
};

let inv = Inventory();
inv.receive("apple", 10);
inv.receive("pear", 4);
inv.receive("apple", 5);
Debug.print(debug_show inv.ship("apple", 12));
Debug.print(debug_show inv.ship("pear", 5));
Debug.print(debug_show inv.ship("plum", 1));
Debug.print(debug_show inv.report());
Debug.print(debug_show inv.operations);
inv.operations := 0;
Debug.print(debug_show inv.operations);
