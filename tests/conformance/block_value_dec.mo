// The value of a block that ends in a declaration: `let` gives the value bound (of the
// annotated type), `func`/`class` the function, `object`/`module` the object, `var` and
// `type` give `()`.
import Debug "mo:core/Debug";

Debug.print(debug_show (do { let x = 5 }));
Debug.print(debug_show (do { var x = 5 }));
Debug.print(debug_show (do { let (a, b) = (1, -2) }));
Debug.print(debug_show (do { let ?c = ?3 else { Debug.print "no"; loop {} } }));
Debug.print(debug_show (do { let { d } = { d = 4; e = 5 } }));
Debug.print(debug_show (do { let _ = "ignored" }));
Debug.print(debug_show (do { let x : Int = 4 }));
Debug.print(debug_show (do { type T = Nat }));
let f = do { func g() : Nat { 7 } };
Debug.print(debug_show (f()));
let o = do { object o { public let q = 1 } };
Debug.print(debug_show (o.q));
let m = do { module M { public let q = 2 } };
Debug.print(debug_show (m.q));
let c = do { class C() { public let q = 3 } };
Debug.print(debug_show (c().q));
func h() : Nat { let y = 9 };
Debug.print(debug_show (h()));
func k(n : Nat) : Int { let r : Int = n };
Debug.print(debug_show (k 6));
let opt = do ? { let z = 8 };
Debug.print(debug_show opt);
let last : Text = "end"
