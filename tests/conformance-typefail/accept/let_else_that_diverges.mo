import Debug "mo:core/Debug";
import Runtime "mo:core/Runtime";
func first(o : ?Nat) : Nat {
  let ?v = o else { return 0 };
  v
};
func second(o : ?Nat) : Nat {
  let ?v = o else { Runtime.trap("none") };
  v
};
var total = 0;
for (o in [?1, null, ?3].vals()) {
  let ?v = o else { continue };
  total += v;
};
Debug.print(debug_show (first(null), first(?4), second(?5), total))
