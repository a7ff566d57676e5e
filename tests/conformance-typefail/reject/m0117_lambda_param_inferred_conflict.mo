import Array "mo:core/Array";
let xs = [1, 2, 3];
let r = Array.filter<Nat>(xs, func (x : Text) : Bool { x == "1" });
r
