import Debug "mo:core/Debug";
func fib(n : Nat) : Nat { if (n < 2) n else fib(n - 1) + fib(n - 2) };
Debug.print(debug_show (fib(20)));
