type NatCell = { var v : Nat };
type IntCell = { var v : Int };
let c : NatCell = { var v = 1 };
let d : IntCell = c;
d.v := -5;
c.v
