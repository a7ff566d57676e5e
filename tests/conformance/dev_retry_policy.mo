// a retry policy object with a `public var` attempt counter and a closure deciding failures
import Debug "mo:core/Debug";
class Retry(max : Nat) {
  public var attempts = 0;
  public func run(op : Nat -> ?Text) : { #ok : Text; #gaveUp : Nat } {
    attempts := 0;
    while (attempts < max) {
      attempts += 1;
      switch (op(attempts)) { case (?r) return #ok r; case null {} };
    };
    #gaveUp attempts
  };
};
let r = Retry(3);
Debug.print(debug_show r.run(func n = if (n == 2) ?"second try" else null));
Debug.print(debug_show (r.run(func _ = null), r.attempts));
