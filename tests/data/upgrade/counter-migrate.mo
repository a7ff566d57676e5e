// A new version of counter.mo that retypes `counter : Nat` to `counter : Text` with an
// explicit migration function (Motoko's enhanced migration).
import Nat "mo:core/Nat";

(with migration = func(old : { var counter : Nat }) : { var counter : Text } {
  { var counter = "was " # Nat.toText(old.counter) }
})
persistent actor {
  var counter : Text = "0";
  var names : [Text] = [];
  var note : Text = "first version";

  public func bump(n : Nat, name : Text) : async () {
    counter := debug_show n;
    names := [name, "x"];
  };

  public query func dump() : async [(Text, Text)] {
    [("counter", debug_show counter), ("names", debug_show names), ("note", debug_show note)];
  };
};
