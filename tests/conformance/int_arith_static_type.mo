// Arithmetic at the static type: an `Int` subtraction whose operands hold values that
// came in as `Nat`s (explicit type arguments, a mo:core map of Ints, a ?Int field that
// held null) goes below zero as an Int, where a `Nat` subtraction would trap.
import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Map "mo:core/Map";
import Nat "mo:core/Nat";
func id<T>(x : T) : T { x };
let a = id<Int>(3);
let b = id<Int>(5);
Debug.print(debug_show (a - b, b - a, a * b - 20));
let xs = Array.map<Nat, Int>([1, 2], func x = x);
Debug.print(debug_show (xs[0] - xs[1], xs[0] - 3));
let balances = Map.empty<Nat, Int>();
Map.add(balances, Nat.compare, 1, 10);
Map.add(balances, Nat.compare, 2, 4);
func transfer(from : Nat, to : Nat, amount : Nat) {
  let f = switch (Map.get(balances, Nat.compare, from)) { case (?v) v; case null 0 };
  let t = switch (Map.get(balances, Nat.compare, to)) { case (?v) v; case null 0 };
  Map.add(balances, Nat.compare, from, f - amount);
  Map.add(balances, Nat.compare, to, t + amount);
};
transfer(2, 1, 7);
Debug.print(debug_show (Map.get(balances, Nat.compare, 1), Map.get(balances, Nat.compare, 2)));
class Account() {
  public var balance : ?Int = null;
  public func deposit(n : Nat) { balance := ?n };
  public func withdraw(n : Nat) : Int {
    switch balance {
      case (?v) { var left = v; left -= n; balance := ?left; left };
      case null { -n };
    };
  };
};
let acct = Account();
acct.deposit(2);
Debug.print(debug_show (acct.withdraw(5), acct.balance));
let ys = Array.tabulate<Int>(3, func i = i);
var total = ys[0];
for (y in ys.vals()) { total -= y };
Debug.print(debug_show total);
let n : Nat = 2;
Debug.print(debug_show (n - 1));
Debug.print(debug_show (n - 3));
