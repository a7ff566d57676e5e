import Debug "mo:core/Debug";
let xs = [{ var n = 1 }, { var n = 2 }];
for (x in xs.vals()) { x.n *= 10 };
Debug.print(debug_show (xs[0].n, xs[1].n));
