func nameOf<R <: { name : Text }>(r : R) : Text { r.name };
let rows = [{ name = "x"; id = 1 }, { name = "y"; id = 2 }];
nameOf(rows[0]) # nameOf(rows[1]) # nameOf({ name = "z" })
