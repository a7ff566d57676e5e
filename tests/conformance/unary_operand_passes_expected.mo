// The operand of a unary operator checked at the expected type passes it on through `if`,
// `do`, blocks, `switch` and `label` to the arithmetic inside: `n - -896` with `n : Nat` is
// an Int subtraction there, and `n - 5` does not underflow.
import Debug "mo:core/Debug";
let n : Nat = 2;
let a : Int = -(if (n > 5) (n - 1) else (n - -896));
let b : Int = -(do { let m : Nat = n; (m - -889) });
let c : Int = -(if (n == 2) (n - 5) else 0);
let d : Int = -(if (n < 9) { let z = 7; n - z } else 0);
let e : Int = -(switch (n) { case 0 0; case _ (n - 9) });
let f : Int = -(label l : Int { if (n == 3) { break l (+406) }; n / -2 });
func g(p : Nat, q : Bool) : Int { -(if q (label l : Int { if q { break l(+406) }; 470 }) else (p / -2)) };
let h : Int8 = -(if (n == 2) (3 - 5) else 0);
Debug.print(debug_show (a, b, c, d, e, f, g(7, false), g(7, true), h));
