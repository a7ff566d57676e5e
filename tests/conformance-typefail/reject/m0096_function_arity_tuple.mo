func add(a : Nat, b : Nat) : Nat { a + b };
let args = (1, 2, 3);
add(args)
