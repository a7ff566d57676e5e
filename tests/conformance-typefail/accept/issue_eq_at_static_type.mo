import Debug "mo:core/Debug";
type Key = { id : Nat };
let a : Key = { id = 7; tag = "first" };
let b : Key = { id = 7; tag = "second" };
Debug.print(debug_show (a == b))
