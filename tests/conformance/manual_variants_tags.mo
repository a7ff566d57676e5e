// Variants: tags with and without payloads, nested, compared and shown.
import Debug "mo:core/Debug";
type Color = { #red; #green; #blue; #rgb : (Nat8, Nat8, Nat8) };
let cs : [Color] = [#red, #rgb(1, 2, 3), #blue];
for (c in cs.vals()) {
  Debug.print(switch c { case (#red) "r"; case (#green) "g"; case (#blue) "b"; case (#rgb(r, g, b)) debug_show (r, g, b) })
};
Debug.print(debug_show cs);
Debug.print(debug_show (#red == #red, #rgb(1, 2, 3) == #rgb(1, 2, 4)));
type Result = { #ok : Nat; #err : { code : Nat; msg : Text } };
let r : Result = #err { code = 404; msg = "not found" };
Debug.print(debug_show r);
