// Function application by juxtaposition: `f x` applies f to a literal, a name, a
// parenthesized or tuple expression or a record; chains associate to the left.
import Debug "mo:core/Debug";
import Nat "mo:core/Nat";

func g(x : Nat) : Nat { x + 1 };
func quarter(x : Nat) : Nat = x / 4;
func isEven(n : Nat) : Bool = n % 2 == 0;
func shout(t : Text) : Text = t # "!";
func add(a : Nat) : Nat -> Nat = func b = a + b;
func area(r : { w : Nat; h : Nat }) : Nat = r.w * r.h;
func mul(a : Nat, b : Nat) : Nat = a * b;
func id<T>(x : T) : T = x;
func parse(t : Text) : ?Nat = Nat.fromText t;
func pair(x : Int) : (Int, Int) = (x, -x);

let n = 7;
let t = "42";
let a = parse t;
Debug.print(debug_show (g 5, shout "x", isEven n, (quarter 8, quarter 6), a));
Debug.print(debug_show (add 1 2, area { w = 3; h = 4 }, mul (6, 7), id<Nat> 5, id<Text> "t"));
Debug.print(debug_show (g (n), g n - 1, g n * 2, -g n, ?g n, g n == 8, not isEven n));
Debug.print(debug_show (id 'c', id true, id null, id 1.5, id (), id {}, id 0x10));
// a tuple value passed to a function of two parameters
let args = (2, 5);
Debug.print(debug_show (mul args, pair 3, (pair 3).1));
// postfix operations apply to the call: `f x.y` is `(f x).y`
let r = { v = [10, 20, 30] };
Debug.print(debug_show (id r.v, id r.v[1], (id r).v.size()));
Debug.print(shout "a" # "b");
// the argument may follow on the next line
let m = g
  3;
Debug.print(debug_show m);
Debug.print
  "last";
