import Debug "mo:core/Debug";
Debug.print(debug_show ("tab\there"));
Debug.print(debug_show ("quote\"q"));
Debug.print(debug_show ("back\\slash"));
Debug.print(debug_show ('\''));
Debug.print(debug_show ('x'));
