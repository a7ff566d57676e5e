// `module X = { ... }` and `object X = { ... }`; a named function expression is visible in
// its own body (and nowhere else).
import Debug "mo:core/Debug";

module X = {
  public let a = 1;
  let hidden = 10;
  public func f() : Nat { a + hidden };
};
Debug.print(debug_show (X.a, X.f()));
module Y : module { b : Nat } = { public let b = 2 };
Debug.print(debug_show Y.b);
object Z = { public let c = 3 };
Debug.print(debug_show Z.c);
let anon = module { public let d = 4 };
Debug.print(debug_show anon.d);

let fob = func fib(n : Nat) : Nat { if (n < 2) n else fib(n - 1) + fib(n - 2) };
Debug.print(debug_show (fob 10, fob(15)));
let fact = func f<T>(n : Nat, t : T) : (Nat, T) {
  if (n == 0) (1, t) else { let (r, _) = f(n - 1, t); (n * r, t) }
};
Debug.print(debug_show fact(5, "t"));
func fib(n : Nat) : Text = "outer " # debug_show n;
Debug.print(fib 3);
