type Counter = { var count : Nat; name : Text };
func make() : Counter { { count = 0; name = "c" } };
make().name
