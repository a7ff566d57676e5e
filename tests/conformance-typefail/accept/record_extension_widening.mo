import Debug "mo:core/Debug";
type Full = { name : Text; n : Nat; tag : Text };
let base = { name = "b"; n = 1; extra = true };
let f : Full = { base with tag = "t" };
Debug.print(debug_show (f.name, f.n, f.tag))
