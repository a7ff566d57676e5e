import Debug "mo:core/Debug";
Debug.print(debug_show ("a" < "b"));
Debug.print(debug_show ("abc" == "abc"));
Debug.print(debug_show ("b" > "abc"));
Debug.print(debug_show ("" < "a"));
Debug.print(debug_show ("Z" < "a"));
