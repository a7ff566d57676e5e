import Debug "mo:core/Debug";
type Shape = { #circle : Float; #rect : (Float, Float); #dot };
func area(s : Shape) : Float { switch s { case (#circle r) 3.0 * r * r; case (#rect(w, h)) w * h; case (#dot) 0.0 } };
Debug.print(debug_show (area(#circle 2.0), area(#rect(2.0, 3.0)), area(#dot)));
