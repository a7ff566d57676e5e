import Debug "mo:core/Debug";
import Array "mo:core/Array";
var fs : [() -> Nat] = [];
for (i in [1, 2, 3].vals()) { fs := Array.concat(fs, [func () : Nat { i * 10 }]) };
for (f in fs.vals()) { Debug.print(debug_show (f())) };
