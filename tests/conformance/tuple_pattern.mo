import Debug "mo:core/Debug";
let (a, b, c) = (1, "x", true);
Debug.print(debug_show (c, b, a));
let t = (5, 6);
Debug.print(debug_show (t.0 + t.1));
switch t { case (5, y) Debug.print(debug_show y); case _ {} };
