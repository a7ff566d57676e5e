import Nat "mo:core/Nat";
let n : Nat.Natural = 5;
n
