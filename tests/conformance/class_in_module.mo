// classes declared in a module, with private helpers of the module
import Debug "mo:core/Debug";

module Shapes {
  func square(x : Float) : Float { x * x };
  public class Circle(r : Float) {
    public func area() : Float { 3.0 * square(r) };
    public func name() : Text { "circle" };
  };
  public class Rect(w : Float, h : Float) {
    public var width = w;
    public func area() : Float { width * h };
    public func name() : Text { "rect" };
  };
  public func describe(name : Text, area : Float) : Text { name # " " # debug_show area };
};

let c = Shapes.Circle(2.0);
let r = Shapes.Rect(3.0, 1.5);
Debug.print(Shapes.describe(c.name(), c.area()));
r.width := 4.0;
Debug.print(Shapes.describe(r.name(), r.area()));
