type T<A> = { next : T<[A]> };
func f<A>(x : T<A>) : T<[A]> { x };
f
