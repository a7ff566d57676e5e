import Nat "mo:core/Nat";
let t = "12";
Nat.toText(t)
