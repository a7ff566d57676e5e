import Debug "mo:core/Debug";
let p : (Nat, { x : Nat; y : Nat }) = (1, { x = 2; y = 3 });
let q : (Int, { x : Nat }) = p;
Debug.print(debug_show (q.0, q.1.x))
