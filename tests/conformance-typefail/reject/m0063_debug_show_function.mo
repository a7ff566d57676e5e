func f(x : Nat) : Nat { x };
debug_show f
