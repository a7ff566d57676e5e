import Debug "mo:core/Debug";
type Ev = { #item : { id : Nat } };
let a : Ev = #item { id = 1; note = "x" };
let b : Ev = #item { id = 1; note = "y" };
Debug.print(debug_show (a == b))
