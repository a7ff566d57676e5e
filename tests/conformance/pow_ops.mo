import Debug "mo:core/Debug";
Debug.print(debug_show (2 ** 0));
Debug.print(debug_show (3 ** 4));
Debug.print(debug_show ((2 : Nat8) ** 7));
Debug.print(debug_show ((-2 : Int) ** 3));
Debug.print(debug_show ((2 : Int32) ** 30));
