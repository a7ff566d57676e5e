type Key = { id : Nat };
let a : Key = { id = 7; tag = "first" };
let b : Key = { id = 7; tag = "second" };
debug_show (a == b)
