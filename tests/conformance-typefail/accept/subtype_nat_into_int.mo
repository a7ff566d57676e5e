import Debug "mo:core/Debug";
func neg(i : Int) : Int { -i };
let n : Nat = 5;
let i : Int = n;
let xs : [Int] = [1, 2, n];
Debug.print(debug_show (neg(n), i, xs))
