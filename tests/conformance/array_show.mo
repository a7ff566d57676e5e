import Debug "mo:core/Debug";
Debug.print(debug_show ([1, 2, 3]));
Debug.print(debug_show ([]));
Debug.print(debug_show (["a", "b"]));
Debug.print(debug_show ([[1], [2, 3]]));
Debug.print(debug_show ([?1, null]));
Debug.print(debug_show ([(1, 'a')]));
