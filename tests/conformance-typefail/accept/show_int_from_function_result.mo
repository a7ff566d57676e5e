import Debug "mo:core/Debug";
func score(n : Nat) : Int { n * 2 };
Debug.print(debug_show (score(3), [score(1), score(2)]))
