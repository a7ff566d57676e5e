// Manual, "Option blocks": do ? { } with ! short-circuits on null.
import Debug "mo:core/Debug";
func add(a : ?Nat, b : ?Nat) : ?Nat = do ? { a! + b! };
Debug.print(debug_show (add(?1, ?2), add(null, ?2), add(?1, null)));
func first(xs : [?Text]) : ?Text = do ? { xs[0]! # "!" };
Debug.print(debug_show (first([?"hi"]), first([null])));
let nested : ??Nat = ??3;
Debug.print(debug_show (do ? { nested!! + 1 }));
