import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Order "mo:core/Order";
func compare(a : Nat, b : Nat) : Order.Order { Nat.compare(b, a) };
let xs = Array.sort([3, 1, 2]);
Debug.print(debug_show xs)
