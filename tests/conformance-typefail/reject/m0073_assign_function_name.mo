func f() : Nat { 1 };
f := func () : Nat { 2 };
f()
