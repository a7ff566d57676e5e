// profile.mo with its type `Status` renamed `State` and nothing else changed: the stable
// types' text differs, the types do not (tests/it/upgrade_cli.rs: reported as the same).
persistent actor {
  type State = { #active; #banned : Text };
  var user : { name : Text; age : Nat; status : State } = {
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
