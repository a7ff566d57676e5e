import Debug "mo:core/Debug";
Debug.print(debug_show (1.5));
Debug.print(debug_show (0.1));
Debug.print(debug_show (0.1 + 0.2));
Debug.print(debug_show (3.0));
Debug.print(debug_show (-2.5));
Debug.print(debug_show (1.0 / 3.0));
Debug.print(debug_show (2.0 * 4.0));
Debug.print(debug_show (10.0 - 0.5));
