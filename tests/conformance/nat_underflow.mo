import Debug "mo:core/Debug";
let a : Nat = 3;
let b : Nat = 5;
Debug.print("before");
let c = a - b;
Debug.print(debug_show c);
