import Debug "mo:core/Debug";
let data = [3, 1, 3, 2, 3, 1];
let counts = [var 0, 0, 0, 0];
for (d in data.vals()) { counts[d] += 1 };
Debug.print(debug_show counts);
