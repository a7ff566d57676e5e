import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Array "mo:core/Array";
var fs : [() -> Nat] = [];
for (i in Nat.range(0, 3)) { let j = i * 2; fs := Array.concat(fs, [func () : Nat { i + j }]) };
Debug.print(debug_show (Array.map<() -> Nat, Nat>(fs, func f = f())));
