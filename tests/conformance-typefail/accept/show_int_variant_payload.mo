import Debug "mo:core/Debug";
type Change = { #up : Int; #down : Nat };
let cs : [Change] = [#up 3, #down 2];
Debug.print(debug_show cs)
