import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
import Nat "mo:core/Nat";
let a = [var 5, 3, 9, 1];
VarArray.sortInPlace(a, Nat.compare);
Debug.print(debug_show a);
