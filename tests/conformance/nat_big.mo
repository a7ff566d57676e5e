import Debug "mo:core/Debug";
Debug.print(debug_show (2 ** 64));
Debug.print(debug_show (2 ** 100 + 1));
Debug.print(debug_show ((2 ** 70) / 3));
Debug.print(debug_show ((2 ** 70) % 1000));
Debug.print(debug_show (18446744073709551615 + 1));
Debug.print(debug_show (12345678901234567890 * 98765432109876543210));
