import Debug "mo:core/Debug";
type T = { child : ?T; v : Nat };
let t : T = { child = ?{ child = null; v = 2 }; v = 1 };
let r = do ? { t.child!.v };
Debug.print(debug_show r);
let s = do ? { t.child!.child!.v };
Debug.print(debug_show s);
