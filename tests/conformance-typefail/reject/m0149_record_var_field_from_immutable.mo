type Cell = { var v : Nat };
let c : Cell = { v = 1 };
c.v := 2;
c.v
