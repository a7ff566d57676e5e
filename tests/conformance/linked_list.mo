import Debug "mo:core/Debug";
type L = ?(Nat, L);
func len(l : L) : Nat { switch l { case null 0; case (?(_, t)) 1 + len(t) } };
var l : L = null;
for (i in [1, 2, 3, 4].vals()) { l := ?(i, l) };
Debug.print(debug_show (len(l), l));
