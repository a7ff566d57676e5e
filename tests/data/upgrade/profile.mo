// The old version of the upgrade tests' canister with a record and a variant
// (tests/it/upgrade_cli.rs, docs/upgrade.md "What changed inside a type").
persistent actor {
  type Status = { #active; #banned : Text };
  var user : { name : Text; age : Nat; status : Status } = {
    name = "ada";
    age = 36;
    status = #active;
  };
  var visits : Nat = 0;

  public func visit() : async () {
    visits += 1;
  };

  public query func dump() : async [(Text, Text)] {
    [("user", debug_show user), ("visits", debug_show visits)];
  };
};
