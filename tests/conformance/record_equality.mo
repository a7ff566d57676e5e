import Debug "mo:core/Debug";
Debug.print(debug_show ({a = 1; b = 2} == {b = 2; a = 1}, {a = 1} == {a = 2}));
