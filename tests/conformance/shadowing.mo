import Debug "mo:core/Debug";
let x = 1;
do { let x = 2; Debug.print(debug_show x) };
Debug.print(debug_show x);
