// A new version of counter.mo whose postupgrade traps.
import Runtime "mo:core/Runtime";

persistent actor {
  var counter : Nat = 0;
  var names : [Text] = [];
  var note : Text = "first version";

  system func postupgrade() {
    Runtime.trap("postupgrade refuses: counter is " # debug_show counter);
  };

  public func bump(n : Nat, name : Text) : async () {
    counter += n;
    names := [name, "x"];
  };

  public query func dump() : async [(Text, Text)] {
    [("counter", debug_show counter), ("names", debug_show names), ("note", debug_show note)];
  };
};
