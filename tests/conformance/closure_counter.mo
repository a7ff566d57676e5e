import Debug "mo:core/Debug";
func make() : () -> Nat { var c = 0; func () : Nat { c += 1; c } };
let a = make();
let b = make();
ignore a(); ignore a();
Debug.print(debug_show (a(), b()));
