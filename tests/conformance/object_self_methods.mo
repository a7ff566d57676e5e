import Debug "mo:core/Debug";
class Shape(w : Nat, h : Nat) = me {
  public let width = w;
  public let height = h;
  public func area() : Nat = me.width * me.height;
  public func isSquare() : Bool = me.width == me.height;
  public func scaled(k : Nat) : Shape = Shape(me.width * k, me.height * k);
};
let s = Shape(2, 3);
Debug.print(debug_show (s.area(), s.isSquare(), s.scaled(2).area()));
Debug.print(debug_show (Shape(4, 4).isSquare()));
