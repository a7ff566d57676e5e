// `public var` initialisers run in order and see earlier fields; the body's own assignments
// change the field the object shows
import Debug "mo:core/Debug";

object o {
  public var x = 1;
  public var y = x + 1;
  x := 10;
  public let z = x + y;
  var hidden = 0;
  public func touch() : Nat { hidden += 1; x += hidden; x };
};
Debug.print(debug_show (o.x, o.y, o.z));
ignore o.touch();
Debug.print(debug_show (o.touch(), o.x));
o.y := o.x;
Debug.print(debug_show (o.x, o.y, o.z));
