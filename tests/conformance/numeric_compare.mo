import Debug "mo:core/Debug";
Debug.print(debug_show (1 < 2));
Debug.print(debug_show (2 <= 2));
Debug.print(debug_show (3 > 4));
Debug.print(debug_show (5 >= 6));
Debug.print(debug_show (1 == 1));
Debug.print(debug_show (1 != 1));
Debug.print(debug_show ((-1 : Int) < 0));
Debug.print(debug_show ((255 : Nat8) > 254));
