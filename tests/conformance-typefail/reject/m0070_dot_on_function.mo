func f() : Nat { 1 };
f.size
