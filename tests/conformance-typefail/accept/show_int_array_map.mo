import Debug "mo:core/Debug";
import Array "mo:core/Array";
let xs : [Nat] = [1, 2, 3];
let ys = Array.map<Nat, Int>(xs, func x = x);
Debug.print(debug_show ys)
