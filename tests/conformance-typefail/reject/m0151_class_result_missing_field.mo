type Named = { name : Text; id : Nat };
func make(n : Text) : Named { { name = n } };
make("x")
