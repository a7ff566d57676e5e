// Manual, "Records": field access, `with` updates, nested records, mutable fields.
import Debug "mo:core/Debug";
let base = { x = 1; y = 2; label_ = "p" };
let moved = { base with x = 10 };
Debug.print(debug_show (base, moved));
let both = { base with x = 5; y = 6; z = true };
Debug.print(debug_show both);
let counter = { var count = 0; name = "c" };
counter.count += 5;
counter.count := counter.count * 2;
Debug.print(debug_show (counter.count, counter.name));
let deep = { a = { b = { c = 42 } } };
Debug.print(debug_show deep.a.b.c);
