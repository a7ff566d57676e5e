// Nat subtraction traps below zero; the same operands typed as Int do not.
import Debug "mo:core/Debug";
let x : Nat = 3;
let y : Nat = 5;
let d : Int = x - y;
Debug.print(debug_show d);
Debug.print(debug_show (y - x));
Debug.print(debug_show (x - y : Int));
let e = x - y;
Debug.print("never");
