import Debug "mo:core/Debug";
let a = [var 1, 2];
a[1] := 5;
Debug.print(debug_show a);
a[2] := 3;
