// An incompatible new version of counter.mo: `counter : Nat` becomes `counter : Text`.
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
