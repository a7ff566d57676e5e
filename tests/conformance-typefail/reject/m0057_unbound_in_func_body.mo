func area(w : Nat) : Nat { w * height };
area(3)
