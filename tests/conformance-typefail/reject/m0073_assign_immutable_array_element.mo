let xs = [1, 2, 3];
xs[0] := 9;
xs[0]
