module Geometry {
  public func square(x : Int) : Int { x * x };
};
Geometry.square("3")
