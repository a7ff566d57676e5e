let xs : [var Nat] = [1, 2, 3];
xs[0] := 4;
xs[0]
