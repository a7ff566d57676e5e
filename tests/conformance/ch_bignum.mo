// Big Nat and Int arithmetic beyond 64 bits.
import Debug "mo:core/Debug";
let a = 2 ** 64;
let b = 3 ** 50;
Debug.print(debug_show (a, b, a * b, b / a, b % a));
let c : Int = -(2 ** 70);
Debug.print(debug_show (c, c * c, c / 3, c % 7, c + a));
Debug.print(debug_show (a == 18_446_744_073_709_551_616, a > b, c < 0));
