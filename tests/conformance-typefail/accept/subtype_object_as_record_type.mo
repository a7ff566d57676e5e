import Debug "mo:core/Debug";
type Reader = { read : () -> Nat };
class Cell(init : Nat) {
  var v = init;
  public func read() : Nat { v };
  public func write(x : Nat) { v := x };
};
let c = Cell(3);
c.write(9);
let r : Reader = c;
Debug.print(debug_show (r.read()))
