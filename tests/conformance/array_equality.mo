import Debug "mo:core/Debug";
Debug.print(debug_show ([1, 2] == [1, 2], [1] == [1, 2]));
