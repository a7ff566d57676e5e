import Debug "mo:core/Debug";
let m = [var [var 0, 0], [var 0, 0]];
m[1][0] := 5;
Debug.print(debug_show m);
