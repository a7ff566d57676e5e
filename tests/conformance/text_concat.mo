import Debug "mo:core/Debug";
Debug.print(debug_show ("abc" # "def"));
Debug.print(debug_show ("" # ""));
Debug.print(debug_show ("a" # "b" # "c"));
