func smallest<T <: Nat>(xs : [T]) : T { xs[0] };
smallest([-1, -2])
