func half(n : Nat) : Nat { n / 2 };
half(3.0)
