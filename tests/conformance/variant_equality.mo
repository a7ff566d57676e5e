import Debug "mo:core/Debug";
Debug.print(debug_show (#a == #a, #a(1) == #a(1), #a(1) == #a(2)));
