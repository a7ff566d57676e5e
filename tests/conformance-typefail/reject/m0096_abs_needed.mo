let d : Int = -4;
func half(n : Nat) : Nat { n / 2 };
half(d)
