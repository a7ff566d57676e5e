import Debug "mo:core/Debug";
func gcd(a : Nat, b : Nat) : Nat { if (b == 0) a else gcd(b, a % b) };
Debug.print(debug_show (gcd(48, 18), gcd(17, 5), gcd(2 ** 70, 2 ** 65 * 3)));
