import Debug "mo:core/Debug";
let n : Nat = 7;
let i : Int = -3;
Debug.print(debug_show (n + i, i * n, n - 10 + 20));
