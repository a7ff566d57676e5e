import Nat "mo:core/Nat";
let n = 5;
n.reverse()
