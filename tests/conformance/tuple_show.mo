import Debug "mo:core/Debug";
Debug.print(debug_show ((1, 2)));
Debug.print(debug_show ((1, "a", 'c', true)));
Debug.print(debug_show (((1, 2), (3, 4))));
Debug.print(debug_show (()));
