import Debug "mo:core/Debug";
Debug.print(debug_show ('a' == 'a', 'a' < 'B', 'z' > 'y'));
