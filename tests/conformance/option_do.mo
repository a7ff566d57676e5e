import Debug "mo:core/Debug";
let a : ?Nat = ?1;
let b : ?Nat = null;
Debug.print(debug_show (do ? { a! + 1 }));
Debug.print(debug_show (do ? { a! + b! }));
Debug.print(debug_show (do ? { 5 }));
