import Debug "mo:core/Debug";
let n : Nat = 3; let m : Nat = 5; let a : Int = n; let b : Int = m;
Debug.print(debug_show (a - b));
