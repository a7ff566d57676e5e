import Debug "mo:core/Debug";
Debug.print(debug_show (() == ()));
