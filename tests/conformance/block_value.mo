import Debug "mo:core/Debug";
let x = do { let a = 2; let b = 3; a * b };
Debug.print(debug_show x);
let y = do { let q = 1; q + 1 };
Debug.print(debug_show y);
