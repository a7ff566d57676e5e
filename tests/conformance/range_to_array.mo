import Debug "mo:core/Debug";
import Iter "mo:core/Iter";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
Debug.print(debug_show (Iter.toArray(Nat.range(2, 6)), Iter.toArray(Int.range(-1, 2)), Iter.toArray(Nat.range(5, 5))));
