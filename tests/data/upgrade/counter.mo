// The old version of the upgrade tests' canister (tests/it/upgrade_cli.rs, docs/upgrade.md):
// three stable variables, changed by `bump`, shown by `dump` as the canister's own debug_show.
persistent actor {
  var counter : Nat = 0;
  var names : [Text] = [];
  var note : Text = "first version";

  public func bump(n : Nat, name : Text) : async () {
    counter += n;
    names := [name, "x"];
  };

  public query func dump() : async [(Text, Text)] {
    [("counter", debug_show counter), ("names", debug_show names), ("note", debug_show note)];
  };
};
