// A new version of profile.mo that drops the field `age` from `user`'s record: Motoko's
// upgrade rules keep a record's fields exactly, so this is incompatible. Its initializer
// names "bob", so a re-initialised `user` is told from one kept without the field.
persistent actor {
  type Status = { #active; #banned : Text };
  var user : { name : Text; status : Status } = {
    name = "bob";
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
