// a `public var` holding a mutable array: the array is shared, the field can be replaced
import Debug "mo:core/Debug";
object grid {
  public var cells : [var Nat] = [var 0, 0, 0];
  public func set(i : Nat, v : Nat) { cells[i] := v };
  public func sum() : Nat { var s = 0; for (c in cells.vals()) { s += c }; s };
};
grid.set(1, 5);
grid.cells[2] := 7;
Debug.print(debug_show (grid.sum(), grid.cells));
grid.cells := [var 1];
grid.set(0, 4);
Debug.print(debug_show (grid.sum(), grid.cells));
