import Debug "mo:core/Debug";
func sign(x : Int) : Text { if (x < 0) "neg" else if (x == 0) "zero" else "pos" };
Debug.print(sign(-3) # sign(0) # sign(7));
if (true) { Debug.print("yes") };
