import Debug "mo:core/Debug";
func f(x : Nat) : Text { switch x { case 0 "zero"; case 1 "one"; case _ "many" } };
Debug.print(f(0) # f(1) # f(2));
func g(t : Text) : Nat { switch t { case "a" 1; case "b" 2; case _ 0 } };
Debug.print(debug_show (g("a"), g("b"), g("c")));
