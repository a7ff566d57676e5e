type Row = { id : Nat; name : Text };
let partial = { id = 2 };
let rows : [Row] = [{ id = 1; name = "a" }, partial];
rows.size()
