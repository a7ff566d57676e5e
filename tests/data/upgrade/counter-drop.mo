// A new version of counter.mo without the stable variable `note`.
persistent actor {
  var counter : Nat = 0;
  var names : [Text] = [];

  public func bump(n : Nat, name : Text) : async () {
    counter += n;
    names := [name, "x"];
  };

  public query func dump() : async [(Text, Text)] {
    [("counter", debug_show counter), ("names", debug_show names)];
  };
};
