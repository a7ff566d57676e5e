import Debug "mo:core/Debug";
let a = [var 1, 2, 3];
a[0] := 10;
a[1] += 5;
Debug.print(debug_show a);
Debug.print(debug_show (a.size()));
