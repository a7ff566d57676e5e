// Integer division and remainder truncate toward zero; division by zero traps.
import Debug "mo:core/Debug";
Debug.print(debug_show (7 / 2, -7 / 2, 7 / -2, -7 / -2));
Debug.print(debug_show (7 % 2, -7 % 2, 7 % -2, -7 % -2));
let a : Int8 = -128;
Debug.print(debug_show (a / 2, a % 3));
Debug.print(debug_show (2 ** 100, (-2) ** 3));
let z = 0;
Debug.print(debug_show (1 / z));
