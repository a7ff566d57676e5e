import Debug "mo:core/Debug";
Debug.print(debug_show (0xFF));
Debug.print(debug_show (0x10 + 1));
Debug.print(debug_show (1_000_000));
Debug.print(debug_show (0xFF_FF));
