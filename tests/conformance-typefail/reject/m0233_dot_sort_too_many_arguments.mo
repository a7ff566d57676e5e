import Array "mo:core/Array";
import Nat "mo:core/Nat";
let xs = [3, 1, 2];
xs.sort(Nat.compare, Nat.compare)
