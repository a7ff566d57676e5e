import Debug "mo:core/Debug";
import Nat8 "mo:core/Nat8";
Debug.print(debug_show (Nat8.fromNat(255)));
let x : Nat8 = 255;
ignore (x + 1);
