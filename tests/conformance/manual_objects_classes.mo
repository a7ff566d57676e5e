// Manual, "Objects and classes": object literals with private state, classes with methods.
import Debug "mo:core/Debug";
object counter {
  var n = 0;
  public func inc() : Nat { n += 1; n };
  public func get() : Nat { n };
};
ignore counter.inc();
ignore counter.inc();
Debug.print(debug_show counter.get());
class Account(owner : Text, start : Nat) {
  var balance = start;
  public func deposit(a : Nat) { balance += a };
  public func show() : Text { owner # ": " # debug_show balance };
};
let acc = Account("ada", 10);
acc.deposit(5);
Debug.print(acc.show());
let acc2 = Account("bob", 0);
Debug.print(acc2.show());
