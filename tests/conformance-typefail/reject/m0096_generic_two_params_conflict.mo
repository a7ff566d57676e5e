func zip<A, B>(a : [A], b : [B], f : (A, B) -> Nat) : Nat { f(a[0], b[0]) };
zip([1], ["x"], func (x : Nat, y : Nat) : Nat { x + y })
