type Point = { x : Nat };
let p = Point;
p
