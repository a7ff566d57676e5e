// a module of helper functions used by the rest of the program
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Text "mo:core/Text";

module Stats {
  public func sum(xs : [Int]) : Int { Array.foldLeft<Int, Int>(xs, 0, func(a, x) = a + x) };
  public func mean(xs : [Int]) : ?Int {
    if (xs.size() == 0) null else ?(sum(xs) / xs.size())
  };
  public func range(xs : [Int]) : ?(Int, Int) {
    if (xs.size() == 0) return null;
    var lo = xs[0];
    var hi = xs[0];
    for (x in xs.vals()) { if (x < lo) lo := x; if (x > hi) hi := x };
    ?(lo, hi)
  };
};

module Fmt {
  public func list(xs : [Int]) : Text {
    Text.join(Array.map<Int, Text>(xs, func x = debug_show x).vals(), ", ")
  };
};

let data : [Int] = [4, -2, 9, 0, 7];
Debug.print(Fmt.list(data));
Debug.print(debug_show (Stats.sum(data), Stats.mean(data), Stats.range(data)));
Debug.print(debug_show (Stats.mean([]), Stats.range([])));
