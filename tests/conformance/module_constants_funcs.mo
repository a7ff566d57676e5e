// a module of constants and pure functions, used by a class
import Debug "mo:core/Debug";
module Tax {
  public let ratePercent = 20;
  public let exempt = ["bread", "milk"];
  public func isExempt(item : Text) : Bool { for (e in exempt.vals()) { if (e == item) return true }; false };
  public func of(item : Text, price : Nat) : Nat { if (isExempt(item)) 0 else price * ratePercent / 100 };
};
class Receipt() {
  public var total = 0;
  public var tax = 0;
  public func add(item : Text, price : Nat) { total += price; tax += Tax.of(item, price) };
};
let r = Receipt();
r.add("bread", 300);
r.add("wine", 1200);
r.add("soap", 250);
Debug.print(debug_show (r.total, r.tax, r.total + r.tax));
