// debug_show at the static type: a record seen through a narrower record type shows the
// fields that type lists (moc warns and leaves the others out), also inside arrays and as
// a parameter; objects show their public fields.
import Debug "mo:core/Debug";
class C(n : Nat) { var hidden = n; public let shown = "s"; public func get() : Nat { hidden } };
let c = C(3);
Debug.print(debug_show (c.shown, c.get()));
let o = object { let secret = 1; public let name = "o"; public var count = 0; public func peek() : Nat { secret } };
o.count += 1;
Debug.print(debug_show (o.name, o.count, o.peek()));
let t : { name : Text } = o;
Debug.print(debug_show t);
let wide = { x = "a"; y = "b"; z = [1, 2] };
let narrow : { x : Text } = wide;
Debug.print(debug_show (narrow, wide));
func f(r : { x : Text }) : Text { debug_show r };
Debug.print(f(wide));
let arr : [{ x : Text }] = [wide, { x = "c"; q = 1 }];
Debug.print(debug_show arr);
let r : { a : Int } = { a = 1; b = 2 };
Debug.print(debug_show r);
type Tree = { #leaf; #node : (Tree, Int, Tree) };
func ins(t : Tree, x : Nat) : Tree {
  switch t { case (#leaf) #node(#leaf, x, #leaf); case (#node(l, v, rt)) #node(ins(l, x), v, rt) }
};
Debug.print(debug_show (ins(#node(#leaf, 3, #leaf), 1)));
