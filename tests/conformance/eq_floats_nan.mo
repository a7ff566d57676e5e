import Debug "mo:core/Debug";
let nan : Float = 0.0 / 0.0;
Debug.print(debug_show (nan == nan, nan != nan, -0.0 == 0.0, 1.5 == 1.5));
Debug.print(debug_show ([nan] == [nan], ?nan == ?nan, (nan, 1) == (nan, 1)));
let r = { v = nan };
Debug.print(debug_show (r == r, { v = 1.0 } == { v = 1.0 }));
let inf : Float = 1.0 / 0.0;
Debug.print(debug_show (inf == inf, inf == -inf));
