// A function may use a declaration that comes later in its block (moc's declarations of a
// block are mutually recursive); the function must run after the declaration did.
import Debug "mo:core/Debug";

func f() : Nat { later + 1 };
let later = 41;
Debug.print(debug_show f());

func g() : Text { greeting # ", " # name };
var greeting = "hello";
let name = "moc";
Debug.print(g());
greeting := "bye";
Debug.print(g());

let inner = do {
  func h() : Nat { a * b };
  let (a, b) = (6, 7);
  h()
};
Debug.print(debug_show inner);

func isEven(n : Nat) : Bool = if (n == 0) true else isOdd(n - 1);
let isOdd = func(n : Nat) : Bool { if (n == 0) false else isEven(n - 1) };
Debug.print(debug_show (isEven 10, isOdd 7));

module M = {
  public func get() : Nat = hidden * 2;
  let hidden = 21;
};
Debug.print(debug_show M.get());
