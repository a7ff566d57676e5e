import Array "mo:core/Array";
type Point = { x : Nat; y : Nat };
let pts : [Point] = [{ x = 2; y = 1 }, { x = 1; y = 5 }];
Array.sort(pts)
