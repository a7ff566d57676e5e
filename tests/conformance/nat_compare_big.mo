import Debug "mo:core/Debug";
Debug.print(debug_show (2 ** 70 > 2 ** 69, 2 ** 64 == 18446744073709551616, (2 ** 64 : Int) - 1));
