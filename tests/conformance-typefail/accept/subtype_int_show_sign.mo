import Debug "mo:core/Debug";
let i : Int = 7;
let j = if (i > 0) 3 else -3;
let mixed = [1, -2, 3];
Debug.print(debug_show (i, j, mixed))
