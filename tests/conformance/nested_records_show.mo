import Debug "mo:core/Debug";
type P = { name : Text; tags : [Text]; meta : ?{ score : Int } };
let p : P = { name = "x"; tags = ["a", "b"]; meta = ?{ score = -4 } };
Debug.print(debug_show p);
Debug.print(debug_show { p with meta = null });
