// objects with methods closing over private state, passed around by their type
import Debug "mo:core/Debug";

type Account = {
  deposit : Nat -> ();
  withdraw : Nat -> Bool;
  balance : () -> Nat;
  history : () -> [Text];
};

func open(name : Text, start : Nat) : Account {
  var bal = start;
  var log : [Text] = [];
  func note(t : Text) { log := [name # ":" # t] };
  object {
    public func deposit(n : Nat) { bal += n; note("+" # debug_show n) };
    public func withdraw(n : Nat) : Bool {
      if (n > bal) { note("refused"); return false };
      bal -= n;
      note("-" # debug_show n);
      true
    };
    public func balance() : Nat { bal };
    public func history() : [Text] { log };
  }
};

let a = open("alice", 100);
let b = open("bob", 5);
a.deposit(20);
ignore a.withdraw(50);
Debug.print(debug_show (b.withdraw(10), b.history()));
let all = [a, b];
var total = 0;
for (acc in all.vals()) { total += acc.balance() };
Debug.print(debug_show (a.balance(), b.balance(), total, a.history()));
