let xs : [Nat8] = [0, 128, 300];
xs.size()
