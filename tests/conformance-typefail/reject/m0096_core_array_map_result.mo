import Array "mo:core/Array";
let xs = [1, 2, 3];
let ys : [Text] = Array.map<Nat, Nat>(xs, func x = x + 1);
ys
