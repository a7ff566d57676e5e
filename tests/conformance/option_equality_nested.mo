import Debug "mo:core/Debug";
Debug.print(debug_show (?(?1) == ?(?1), ?null == (?null : ??Nat), (null : ?Nat) == ?1));
