import Debug "mo:core/Debug";
Debug.print(debug_show ((-2 : Int) ** 65));
Debug.print(debug_show (-(2 ** 80 : Int)));
Debug.print(debug_show ((2 ** 80 : Int) - (2 ** 81 : Int)));
