import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Order "mo:core/Order";
func compare(a : Text, b : Text) : Order.Order { if (a < b) #greater else if (a == b) #equal else #less };
Debug.print(debug_show (Array.sort([3, 1, 2]), Array.sort(["b", "a", "c"])))
