import Debug "mo:core/Debug";
Debug.print(debug_show (-1.5, [-0.5], {f = -2.0}, #v(-1.0)));
