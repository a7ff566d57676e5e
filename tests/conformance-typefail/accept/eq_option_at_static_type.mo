import Debug "mo:core/Debug";
type K = { k : Nat };
let a : ?K = ?{ k = 1; note = "a" };
let b : ?K = ?{ k = 1; note = "b" };
Debug.print(debug_show (a == b))
