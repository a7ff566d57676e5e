// `+1` is a literal like `-1`: it takes the expected type, `Float` included
import Debug "mo:core/Debug";
let x : Float = +1;
let y : Int = +2;
let z : Int8 = +3;
func f(v : Float) : Float { v };
let w : Float = -1;
Debug.print(debug_show (x, y, z, f(+4), w, x + +0.5))
