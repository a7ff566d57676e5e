type Row = { id : Nat; name : Text; id : Nat };
let r : Row = { id = 1; name = "x" };
r
