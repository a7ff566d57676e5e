func sum(xs : [Nat]) : Nat { xs.size() };
sum([var 1, 2])
