import Debug "mo:core/Debug";
Debug.print(debug_show (1.5 < 2.5));
Debug.print(debug_show (2.0 == 2.0));
Debug.print(debug_show (0.1 + 0.2 == 0.3));
Debug.print(debug_show (1.0 != 1.0));
Debug.print(debug_show (-0.0 == 0.0));
