import Debug "mo:core/Debug";
Debug.print(debug_show ({a = 1; b = "x"}));
Debug.print(debug_show ({}));
Debug.print(debug_show ({z = 1; a = 2; m = 3}));
Debug.print(debug_show ({a = {b = {c = 1}}}));
Debug.print(debug_show ({x = ?1; y = [1, 2]}));
