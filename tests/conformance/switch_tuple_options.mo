import Debug "mo:core/Debug";
func f(a : ?Nat, b : ?Nat) : Text { switch (a, b) { case (?x, ?y) debug_show (x + y); case (?x, null) "left " # debug_show x; case (null, ?y) "right " # debug_show y; case (null, null) "none" } };
Debug.print(f(?1, ?2) # "; " # f(?1, null) # "; " # f(null, ?3) # "; " # f(null, null));
