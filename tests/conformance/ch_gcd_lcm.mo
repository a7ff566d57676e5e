// Euclid's algorithm, recursive and iterative, on Nat and Int.
import Debug "mo:core/Debug";
func gcd(a : Nat, b : Nat) : Nat { if (b == 0) a else gcd(b, a % b) };
func lcm(a : Nat, b : Nat) : Nat { a / gcd(a, b) * b };
Debug.print(debug_show (gcd(48, 18), gcd(17, 5), lcm(4, 6), lcm(21, 6)));
func gcdI(x : Int, y : Int) : Int { var a = x; var b = y; while (b != 0) { let t = b; b := a % b; a := t }; a };
Debug.print(debug_show (gcdI(-48, 18), gcdI(100, -75)));
