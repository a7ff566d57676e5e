import Debug "mo:core/Debug";
type Point = { x : Int; y : Int };
type List<T> = ?(T, List<T>);
let p : Point = { x = 1; y = -2 };
let l : List<Nat> = ?(1, ?(2, null));
Debug.print(debug_show (p, l));
