let xs = [3, 1, 2];
Array.sort(xs, Nat.compare)
