let xs : [Nat] = [var 1, 2, 3];
xs.size()
