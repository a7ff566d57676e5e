import Debug "mo:core/Debug";
Debug.print(debug_show ((1 : Int) + 2));
Debug.print(debug_show ((-5 : Int) * 3));
Debug.print(debug_show ((-7 : Int) / 2));
Debug.print(debug_show ((-7 : Int) % 2));
Debug.print(debug_show ((7 : Int) % -2));
Debug.print(debug_show ((0 : Int)));
Debug.print(debug_show ((-1 : Int) - 1));
