import Debug "mo:core/Debug";
func twice(f : Nat -> Nat, x : Nat) : Nat { f(f(x)) };
Debug.print(debug_show (twice(func x = x * 3, 2)));
let compose = func (f : Nat -> Nat, g : Nat -> Nat) : Nat -> Nat { func x = f(g(x)) };
Debug.print(debug_show (compose(func x = x + 1, func x = x * 2)(5)));
