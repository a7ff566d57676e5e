import Debug "mo:core/Debug";
type Named = { name : Text };
func greet(n : Named) : Text { "hello " # n.name };
let full = { name = "ana"; age = 33; admin = true };
let short : Named = full;
Debug.print(debug_show (greet(full) # ", " # short.name))
