func f<A <: B, B <: A>(a : A) : B { a };
f(1)
