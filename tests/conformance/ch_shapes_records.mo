// Records of functions: a tiny object protocol without classes.
import Debug "mo:core/Debug";
type Shape = { name : Text; area : () -> Float };
func square(s : Float) : Shape { { name = "square"; area = func() : Float { s * s } } };
func circle(r : Float) : Shape { { name = "circle"; area = func() : Float { 3.0 * r * r } } };
let shapes = [square(2.0), circle(1.0), square(0.5)];
var total = 0.0;
for (s in shapes.vals()) { Debug.print(s.name # " " # debug_show (s.area())); total += s.area() };
Debug.print(debug_show total);
