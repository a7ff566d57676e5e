import Debug "mo:core/Debug";
func toBin(n0 : Nat) : Text { if (n0 == 0) return "0"; var n = n0; var s = ""; while (n > 0) { s := (if (n % 2 == 0) "0" else "1") # s; n /= 2 }; s };
Debug.print(toBin(10) # " " # toBin(255) # " " # toBin(0));
