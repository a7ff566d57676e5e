import Debug "mo:core/Debug";
func f(x : Int) : Text { switch x { case (-1) "minus one"; case 0 "zero"; case _ "other" } };
Debug.print(f(-1) # " " # f(0) # " " # f(5));
