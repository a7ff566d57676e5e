// a module exporting a type, a class producing it, and functions over it
import Debug "mo:core/Debug";
module Money {
  public type Amount = { units : Int; currency : Text };
  public func make(u : Int, c : Text) : Amount { { units = u; currency = c } };
  public func add(a : Amount, b : Amount) : ?Amount {
    if (a.currency != b.currency) null else ?{ a with units = a.units + b.units }
  };
  public class Wallet(c : Text) {
    public var balance : Amount = make(0, c);
    public func pay(a : Amount) : Bool {
      switch (add(balance, { a with units = -a.units })) {
        case (?b) { balance := b; true };
        case null false;
      }
    };
  };
};
let w = Money.Wallet("EUR");
w.balance := Money.make(100, "EUR");
Debug.print(debug_show (w.pay(Money.make(30, "EUR")), w.pay(Money.make(5, "USD")), w.balance));
