import Debug "mo:core/Debug";
Debug.print(debug_show (0));
Debug.print(debug_show (999));
Debug.print(debug_show (1000));
Debug.print(debug_show (1234567));
Debug.print(debug_show (1000000000000));
