// A compatible new version of profile.mo under Motoko's upgrade rules: `visits` widens from
// `Nat` to `Int`, the variant `Status` gains the tag `#vip`, and a variable `since` is added.
persistent actor {
  type Status = { #active; #banned : Text; #vip : Nat };
  var user : { name : Text; age : Nat; status : Status } = {
    name = "ada";
    age = 36;
    status = #active;
  };
  var visits : Int = 0;
  var since : Nat = 2026;

  public func visit() : async () {
    visits += 1;
  };

  public query func dump() : async [(Text, Text)] {
    [("since", debug_show since), ("user", debug_show user), ("visits", debug_show visits)];
  };
};
