func f() : Nat {};
f()
