import Debug "mo:core/Debug";
Debug.print(debug_show ((1, "a") == (1, "a"), (1, 2) != (1, 3), ?1 == ?1, null == (null : ?Nat)));
