import Debug "mo:core/Debug";
func nameOf<R <: { name : Text }>(r : R) : Text { r.name };
let rows = [{ name = "x"; id = 1 }, { name = "y"; id = 2 }];
Debug.print(debug_show (nameOf(rows[0]) # nameOf(rows[1]) # nameOf({ name = "z" })))
