// a `let` whose pattern does not match traps with the value (moc's message); the `else` of
// `if c let ?x = o else ...` belongs to the `if`
import Debug "mo:core/Debug";
func first(c : Bool, o : ?Nat) : Nat { if c let ?x = o else return 0; 1 };
Debug.print(debug_show (first(false, null), first(true, ?4)));
let pair = (2, "x");
let (n, t) = pair;
Debug.print(debug_show (n, t));
let (1, rest) = pair;
Debug.print("not reached");
