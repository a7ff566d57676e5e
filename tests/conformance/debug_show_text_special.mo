import Debug "mo:core/Debug";
Debug.print(debug_show ("a\"b", "\\", "new\nline"));
