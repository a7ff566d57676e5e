// An incompatible new version of profile.mo: inside `user`, the field `age` is retyped
// (Nat to Text), a field `email` is added, and the tag `#banned` gives way to `#suspended`.
persistent actor {
  type Status = { #active; #suspended : Nat };
  var user : { name : Text; age : Text; email : Text; status : Status } = {
    name = "ada";
    age = "36";
    email = "ada@example.org";
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
