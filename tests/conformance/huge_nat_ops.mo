import Debug "mo:core/Debug";
let a = 10 ** 30;
let b = 10 ** 29 + 7;
Debug.print(debug_show (a / b, a % b, a - b, a * b));
