func apply<T>(f : T -> T, x : T) : T { f x };
apply(func (n : Nat) : Nat { n + 1 }, "x")
