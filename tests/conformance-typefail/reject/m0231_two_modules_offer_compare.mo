import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Order "mo:core/Order";
module Reverse {
  public func compare(a : Nat, b : Nat) : Order.Order { Nat.compare(b, a) };
};
let xs = Array.sort([3, 1, 2]);
xs
