import Debug "mo:core/Debug";
type Counter = { var count : Nat };
let c : Counter = { var count = 0 };
c.count += 5;
let view : { name : Text } = { name = "v"; var hidden = 1 };
Debug.print(debug_show (c.count, view.name))
