import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Order "mo:core/Order";
func compare(x : Nat, y : Nat) : Order.Order = Nat.compare(y, x);
Debug.print(debug_show (Array.sort(["pear", "fig", "apple"])))
