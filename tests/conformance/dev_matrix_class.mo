// a matrix class over a flat mutable array with index helpers and a `public var` name
import Debug "mo:core/Debug";
import VarArray "mo:core/VarArray";
class Matrix(rows : Nat, cols : Nat) {
  let data = VarArray.repeat<Int>(0, rows * cols);
  public var name = "m";
  public func set(r : Nat, c : Nat, v : Int) { data[r * cols + c] := v };
  public func get(r : Nat, c : Nat) : Int { data[r * cols + c] };
  public func rowSum(r : Nat) : Int { var s : Int = 0; for (c in VarArray.keys(data)) { if (c / cols == r) s += data[c] }; s };
};
let m = Matrix(2, 3);
m.set(0, 0, 5); m.set(0, 2, -1); m.set(1, 1, 7);
m.name := "A";
Debug.print(m.name # " " # debug_show (m.get(0, 2), m.rowSum(0), m.rowSum(1)));
