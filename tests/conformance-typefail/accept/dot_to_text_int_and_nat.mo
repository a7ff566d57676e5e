import Debug "mo:core/Debug";
import Nat "mo:core/Nat";
import Int "mo:core/Int";
let n : Nat = 5;
let i : Int = 5;
let j : Int = -5;
Debug.print(n.toText() # " " # i.toText() # " " # j.toText())
