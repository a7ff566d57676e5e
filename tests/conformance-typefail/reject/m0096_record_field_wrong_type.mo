type Point = { x : Int; y : Int };
let p = { x = 1; y = "two" };
let q : Point = p;
q.x
