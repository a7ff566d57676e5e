// the best of several implicit arguments: moc takes the candidate of the most general type
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Order "mo:core/Order";
module Reverse {
  // (Int, Int) -> Order is a subtype of (Nat, Nat) -> Order: `Nat.compare` is closer
  public func compare(a : Int, b : Int) : Order.Order = if (a > b) #less else if (a == b) #equal else #greater;
};
module Loose {
  public func equal(a : Int, b : Int) : Bool = a == b or a == -b;
};
func sorted<T>(xs : [T], compare : (implicit : (T, T) -> Order.Order)) : Bool {
  var i = 1;
  while (i < xs.size()) {
    if (compare(xs[i - 1], xs[i]) == #greater) return false;
    i += 1;
  };
  true
};
func same<T>(a : T, b : T, equal : (implicit : (T, T) -> Bool)) : Bool = equal(a, b);
Debug.print(debug_show (sorted([1, 2, 3]), sorted([3, 2, 1])));
Debug.print(debug_show (sorted([-1, -2, -3] : [Int]), sorted([1, 2, 3] : [Int])));
Debug.print(debug_show (same(-2 : Int, 2), same(3, 3)));
