import Debug "mo:core/Debug";
Debug.print(debug_show (1.0 / 0.0));
Debug.print(debug_show (-1.0 / 0.0));
Debug.print(debug_show (?(1.0/0.0)));
Debug.print(debug_show (?(-1.5)));
Debug.print(debug_show ([-1.5, 2.5]));
