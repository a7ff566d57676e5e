// A compatible new version of counter.mo: adds a stable variable with an initializer.
persistent actor {
  var counter : Nat = 0;
  var names : [Text] = [];
  var note : Text = "first version";
  var added : Nat = 7;

  public func bump(n : Nat, name : Text) : async () {
    counter += n;
    names := [name, "x"];
    added += 1;
  };

  public query func dump() : async [(Text, Text)] {
    [
      ("added", debug_show added),
      ("counter", debug_show counter),
      ("names", debug_show names),
      ("note", debug_show note),
    ];
  };
};
