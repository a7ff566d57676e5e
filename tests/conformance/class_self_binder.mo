import Debug "mo:core/Debug";
class Account(owner : Text, start : Nat) = this {
  var bal = start;
  public let name = owner;
  public func deposit(n : Nat) : Nat { bal += n; bal };
  public func describe() : Text = this.name # ": " # debug_show this.balance();
  public func balance() : Nat = bal;
};
let a = Account("ann", 10);
ignore a.deposit(5);
Debug.print(a.describe());
class Node(v : Nat) = self {
  public let value = v;
  public func twice() : Nat = self.value * 2;
};
Debug.print(debug_show Node(21).twice());
