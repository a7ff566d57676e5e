import Debug "mo:core/Debug";
let total = 10;
Debug.print(total)
