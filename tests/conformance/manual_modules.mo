// Manual, "Modules": module declarations with public and private members.
import Debug "mo:core/Debug";
module Geometry {
  let tau = 6.283185307179586;
  public func circumference(r : Float) : Float { tau * r };
  public type Point = { x : Int; y : Int };
  public func origin() : Point { { x = 0; y = 0 } };
};
Debug.print(debug_show (Geometry.circumference(1.0)));
let p : Geometry.Point = { x = 3; y = -4 };
Debug.print(debug_show (p, Geometry.origin()));
