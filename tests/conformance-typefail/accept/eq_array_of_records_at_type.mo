import Debug "mo:core/Debug";
type K = { id : Nat };
let xs : [K] = [{ id = 1; tag = "a" }];
let ys : [K] = [{ id = 1; tag = "b" }];
Debug.print(debug_show (xs == ys))
