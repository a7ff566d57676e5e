// Only Int is imported: a Nat receiver uses Int's functions (Nat <: Int).
import Int "mo:core/Int";
import Debug "mo:core/Debug";

let n = 42;
Debug.print(n.toText());
let xs = [1, 2, 3];
var total = 0;
for (x in xs.vals()) { total += x };
Debug.print(total.toText());
