import Debug "mo:core/Debug";
func steps(n0 : Nat) : Nat { var n = n0; var s = 0; while (n != 1) { n := if (n % 2 == 0) n / 2 else 3 * n + 1; s += 1 }; s };
Debug.print(debug_show (steps(27), steps(1)));
