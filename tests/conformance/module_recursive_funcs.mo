// mutually recursive functions in a module, and a module function used as a value
import Debug "mo:core/Debug";
import Array "mo:core/Array";
module Parity {
  public func isEven(n : Nat) : Bool { if (n == 0) true else isOdd(n - 1) };
  public func isOdd(n : Nat) : Bool { if (n == 0) false else isEven(n - 1) };
};
Debug.print(debug_show Array.map<Nat, Bool>([0, 1, 10, 7], Parity.isEven));
let f = Parity.isOdd;
Debug.print(debug_show Array.filter<Nat>([1, 2, 3, 4, 5], f));
