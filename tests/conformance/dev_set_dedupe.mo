// a class keeping unique ids in a mo:core Set and counting duplicates
import Debug "mo:core/Debug";
import Set "mo:core/Set";
import Nat "mo:core/Nat";

class Dedupe() {
  let seen = Set.empty<Nat>();
  public var duplicates = 0;
  public func add(x : Nat) : Bool {
    if (Set.contains(seen, Nat.compare, x)) { duplicates += 1; false } else {
      Set.add(seen, Nat.compare, x);
      true
    }
  };
  public func all() : [Nat] { Set.toArray(seen) };
};

let d = Dedupe();
var fresh : [Bool] = [];
for (x in [5, 3, 5, 9, 3, 3, 1].vals()) { ignore d.add(x) };
Debug.print(debug_show (d.all(), d.duplicates));
d.duplicates := 0;
Debug.print(debug_show (d.add(3), d.add(4), d.duplicates, d.all()));
