// Record combination: `{ a and b }` joins records, `{ a and b with f = e }` also adds or
// overrides fields; the bases are evaluated left to right, then the fields.
import Debug "mo:core/Debug";

let base = { name = "n"; size = 3 };
let tagged = { base and { tag = #new } };
Debug.print(debug_show tagged);
let more = { base and { tag = #old } with size = 4; extra = true };
Debug.print(debug_show more);
let three = { { a = 1 } and { b = 2 } and { c = 'c' } };
Debug.print(debug_show three);
func mk(n : Nat) : { n : Nat } = { n };
let called = { mk 5 and { m = 6 } };
Debug.print(debug_show called);
var order = "";
func note(t : Text) : { } { order #= t; {} };
let r = { note "a" and { z = 1 } and note "b" with y = do { order #= "c"; 2 } };
Debug.print(debug_show (r, order));
let single = { base with size = 9 };
Debug.print(debug_show single);
// a block whose value is a Boolean `and` is still a block
let flag = do { true and false };
Debug.print(debug_show flag);
if (true) { Debug.print(debug_show (true and true)) };
