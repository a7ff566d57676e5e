module Geometry {
  public func square(x : Int) : Int { x * x };
};
let three = "3";
Geometry.square(three)
