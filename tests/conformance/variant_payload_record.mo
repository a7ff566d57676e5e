import Debug "mo:core/Debug";
let v = #user { name = "x"; id = 1 };
switch v { case (#user u) Debug.print(u.name # debug_show u.id) };
Debug.print(debug_show v);
