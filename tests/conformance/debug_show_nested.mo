import Debug "mo:core/Debug";
Debug.print(debug_show [?{a = [#b(1, ?"c")]}]);
