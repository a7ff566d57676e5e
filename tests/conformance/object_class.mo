import Debug "mo:core/Debug";
class Counter(start : Nat) {
  var n = start;
  public func inc() : Nat { n += 1; n };
  public func get() : Nat = n;
};
let c = Counter(5);
ignore c.inc();
Debug.print(debug_show (c.inc(), c.get()));
let o = object { public let x = 1; var hidden = 2; public func twice() : Nat = x * 2 + hidden };
Debug.print(debug_show (o.x, o.twice()));
type Shape = { #circle : Float; #rect : (Float, Float) };
func area(s : Shape) : Float = switch s { case (#circle r) 3.0 * r * r; case (#rect(w, h)) w * h };
Debug.print(debug_show (area(#circle 2.0), area(#rect(2.0, 3.5))));
func first<T>(xs : [T]) : ?T = if (xs.size() == 0) null else ?xs[0];
Debug.print(debug_show (first<Text>(["a"]), first<Nat>([])));
let ?v = first<Nat>([9]) else { Debug.print("none"); loop {} };
Debug.print(debug_show v);
type Result = { #ok : Nat; #err : Text };
func div(a : Nat, b : Nat) : Result = if (b == 0) #err "div by zero" else #ok(a / b);
for (r in [div(6, 3), div(1, 0)].vals()) {
  switch r { case (#ok n) Debug.print("ok " # debug_show n); case (#err e) Debug.print("err " # e) }
};
var total = 0;
label outer for (i in [1, 2, 3].vals()) {
  for (j in [10, 20].vals()) { if (i == 2) continue outer; total += i * j };
};
Debug.print(debug_show total);
