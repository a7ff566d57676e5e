import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
let xs = [4, 9, 2, 7];
Debug.print(debug_show (Array.foldLeft<Nat, Nat>(xs, 0, Nat.max)));
