import Debug "mo:core/Debug";
class Box<T>(init : T, show : T -> Text) {
  var value = init;
  var history : [T] = [];
  public func set(x : T) { history := [value]; value := x };
  public func get() : T = value;
  public func describe() : Text = "Box(" # show(value) # ")";
};
let b = Box<Nat>(3, func n = debug_show n);
b.set(5);
Debug.print(b.describe());
let t = Box<Text>("a", func s = s # "!");
t.set("zz");
Debug.print(t.describe() # " " # debug_show(t.get()));
object counter {
  var n = 0;
  public func inc() : Nat { n += 1; n };
  public func twice() : Nat { ignore inc(); inc() };
};
Debug.print(debug_show(counter.twice(), counter.inc()));
func pick({ a : Nat; b : Text }) : Text = b # debug_show a;
Debug.print(pick({ a = 7; b = "x"; }));
type Shape = { #circle : Nat; #square : Nat; #tri : (Nat, Nat) };
func area(s : Shape) : Nat = switch s {
  case (#circle r or #square r) r * r;
  case (#tri(b, h)) b * h / 2;
};
Debug.print(debug_show([area(#circle 2), area(#square 3), area(#tri(4, 5))]));
var i = 0;
loop { i += 3 } while (i < 10);
Debug.print(debug_show i);
