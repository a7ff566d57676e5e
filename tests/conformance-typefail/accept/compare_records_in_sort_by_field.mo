import Debug "mo:core/Debug";
import Array "mo:core/Array";
import Nat "mo:core/Nat";
type Row = { id : Nat; name : Text };
let rows : [Row] = [{ id = 2; name = "b" }, { id = 1; name = "a" }];
let sorted = Array.sort<Row>(rows, func (x, y) = Nat.compare(x.id, y.id));
Debug.print(debug_show sorted)
