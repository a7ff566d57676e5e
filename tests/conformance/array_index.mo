import Debug "mo:core/Debug";
let a = [10, 20, 30];
Debug.print(debug_show (a[0], a[2], a.size()));
ignore a[3];
