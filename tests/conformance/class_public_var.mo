// classes with `public var` fields, a `= self` binder, fields read through the binder
import Debug "mo:core/Debug";

class Point(x0 : Int, y0 : Int) = self {
  public var x = x0;
  public var y = y0;
  public func move(dx : Int, dy : Int) { x += dx; self.y += dy };
  public func norm1() : Nat { Int_abs(self.x) + Int_abs(y) };
  func Int_abs(i : Int) : Nat { if (i < 0) { Nat_of(-i) } else { Nat_of(i) } };
  func Nat_of(i : Int) : Nat { var n = 0; var k = i; while (k > 0) { n += 1; k -= 1 }; n };
};

let p = Point(1, 2);
p.move(3, -4);
p.x := p.x * 2;
Debug.print(debug_show (p.x, p.y, p.norm1()));
let q = Point(-1, -1);
q.y := 5;
Debug.print(debug_show [p.x, p.y, q.x, q.y]);
Debug.print(debug_show {x = q.x; y = q.y});
