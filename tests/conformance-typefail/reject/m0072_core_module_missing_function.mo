import Nat "mo:core/Nat";
Nat.fromTextOrZero("12")
