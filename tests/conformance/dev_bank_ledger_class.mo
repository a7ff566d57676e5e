// a ledger class over a Map of balances with Int amounts and a history array
import Debug "mo:core/Debug";
import Map "mo:core/Map";
import Text "mo:core/Text";
import Array "mo:core/Array";
class Ledger() {
  let balances = Map.empty<Text, Int>();
  public var history : [(Text, Int)] = [];
  public func post(acct : Text, amount : Int) {
    let cur = switch (Map.get(balances, Text.compare, acct)) { case (?b) b; case null 0 };
    Map.add(balances, Text.compare, acct, cur + amount);
    history := Array.concat(history, [(acct, amount)]);
  };
  public func balance(acct : Text) : Int { switch (Map.get(balances, Text.compare, acct)) { case (?b) b; case null 0 } };
};
let l = Ledger();
l.post("cash", 100);
l.post("rent", -40);
l.post("cash", -40);
Debug.print(debug_show (l.balance("cash"), l.balance("rent"), l.balance("none"), l.history));
