// Manual, "Patterns": literals, tuples, records, options, variants, alternatives, annotations.
import Debug "mo:core/Debug";
import Runtime "mo:core/Runtime";
func classify(x : (Nat, ?Text)) : Text {
  switch x {
    case (0, null) "zero, nothing";
    case (0, ?t) "zero, " # t;
    case (1 or 2, _) "small";
    case (n, ?("a" or "b")) "letter " # debug_show n;
    case (_, _) "other";
  }
};
for (v in [(0, null), (0, ?"x"), (2, null), (9, ?"b"), (9, ?"z")].vals()) { Debug.print(classify v) };
let { name; age = years } = { name = "Ada"; age = 36 };
Debug.print(name # " " # debug_show years);
let (p, (q, r)) = (1, (2, 3));
Debug.print(debug_show (p + q + r));
type Shape = { #circle : Float; #rect : { w : Float; h : Float }; #dot };
func area(s : Shape) : Float {
  switch s { case (#circle r) 3.0 * r * r; case (#rect { w; h }) w * h; case (#dot) 0.0 }
};
Debug.print(debug_show (area(#circle 2.0), area(#rect { w = 2.0; h = 3.5 }), area(#dot)));
let ?z = ?5 else { Debug.print("none"); Runtime.trap("none") };
Debug.print(debug_show z);
