func neg(i : Int) : Int { -i };
let n : Nat = 5;
let i : Int = n;
let xs : [Int] = [1, 2, n];
debug_show (neg(n), i, xs)
