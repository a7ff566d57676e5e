import Debug "mo:core/Debug";
Debug.print(debug_show (1 + 2));
Debug.print(debug_show (10 - 3));
Debug.print(debug_show (6 * 7));
Debug.print(debug_show (17 / 5));
Debug.print(debug_show (17 % 5));
Debug.print(debug_show (2 ** 10));
Debug.print(debug_show (0 * 5));
