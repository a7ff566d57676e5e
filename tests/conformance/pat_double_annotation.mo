import Debug "mo:core/Debug";
func sign(i : Int) : Text {
  switch i {
    case (-1 : Int : Int) "minus one";
    case (0 : Int) "zero";
    case _ "other";
  }
};
Debug.print(sign(-1) # " " # sign(0) # " " # sign(5));
let (x : Nat : Nat, y) = (1, 2);
Debug.print(debug_show (x + y));
