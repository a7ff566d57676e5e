import Debug "mo:core/Debug";
let xs : [Int] = [7, -7];
let ys : [Int] = [2, -2];
for (x in xs.vals()) { for (y in ys.vals()) { Debug.print(debug_show (x / y, x % y)) } };
