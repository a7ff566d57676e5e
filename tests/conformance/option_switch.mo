import Debug "mo:core/Debug";
func f(o : ?Nat) : Text { switch o { case null "none"; case (?0) "zero"; case (?n) "some " # debug_show n } };
Debug.print(f(null));
Debug.print(f(?0));
Debug.print(f(?5));
