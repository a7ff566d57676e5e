import Debug "mo:core/Debug";
func isEven(n : Nat) : Bool { if (n == 0) true else isOdd(n - 1) };
func isOdd(n : Nat) : Bool { if (n == 0) false else isEven(n - 1) };
Debug.print(debug_show (isEven(10), isOdd(7), isEven(3)));
