let acct = object {
  var balance = 100;
  public func deposit(x : Nat) { balance += x };
};
acct.balance
