func f((a, a) : (Nat, Nat)) : Nat { a };
f((1, 2))
