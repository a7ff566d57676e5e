import Debug "mo:core/Debug";
func f(n : Nat) : Nat { if (n == 0) { let z : Nat = 0; z - 1 } else f(n - 1) };
Debug.print("go");
ignore f(3);
