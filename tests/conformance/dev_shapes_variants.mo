// shapes as variants, an object computing totals, and a module of geometry helpers
import Debug "mo:core/Debug";
import Float "mo:core/Float";
type Shape = { #circle : Float; #rect : (Float, Float); #tri : { b : Float; h : Float } };
module Geo {
  public func area(s : Shape) : Float {
    switch s {
      case (#circle r) Float.pi * r * r;
      case (#rect(w, h)) w * h;
      case (#tri { b; h }) b * h / 2.0;
    }
  };
};
object totals {
  public var sum = 0.0;
  public var count = 0;
  public func add(s : Shape) { sum += Geo.area(s); count += 1 };
};
for (s in [#circle 1.0, #rect(2.0, 3.5), #tri { b = 4.0; h = 3.0 }].vals()) { totals.add(s) };
Debug.print(debug_show (totals.count, Float.floor(totals.sum * 100.0) / 100.0));
