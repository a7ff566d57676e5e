// anonymous objects with `public var` fields, made by a function: each call has its own state
import Debug "mo:core/Debug";

func account(name : Text, initial : Int) : { var balance : Int; owner : Text; deposit : Int -> () } {
  object {
    public var balance = initial;
    public let owner = name;
    public func deposit(amount : Int) { balance += amount };
  }
};

let a = account("ann", 10);
let b = account("bob", -5);
a.deposit(5);
b.deposit(+7);
a.balance := a.balance * 2;
Debug.print(debug_show (a.owner, a.balance, b.owner, b.balance));
let accounts = [a, b];
for (acc in accounts.vals()) { acc.deposit(100) };
Debug.print(debug_show (a.balance, b.balance));
var total : Int = 0;
for (acc in accounts.vals()) { total += acc.balance };
Debug.print(debug_show total);
