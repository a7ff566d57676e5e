let xs : [Nat32] = [1, 2, 4_294_967_296];
xs.size()
