// Nested options, switch on them, and option equality.
import Debug "mo:core/Debug";
let vals : [??Nat] = [null, ?null, ??0, ??7];
for (v in vals.vals()) {
  Debug.print(switch v { case null "none"; case (?null) "some none"; case (??n) "some some " # debug_show n })
};
Debug.print(debug_show vals);
Debug.print(debug_show (vals[1] == ?null, vals[0] == null));
