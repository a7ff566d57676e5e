import Debug "mo:core/Debug";
Debug.print(debug_show (2.0 ** 10.0));
Debug.print(debug_show (7.5 % 2.0));
Debug.print(debug_show ((-7.5) % 2.0));
