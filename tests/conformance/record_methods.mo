import Debug "mo:core/Debug";
func counter() : { inc : () -> Nat; get : () -> Nat } { var n = 0; { inc = func () : Nat { n += 1; n }; get = func () : Nat { n } } };
let c = counter();
ignore c.inc();
ignore c.inc();
Debug.print(debug_show (c.get()));
let d = counter();
Debug.print(debug_show (d.inc(), c.get()));
