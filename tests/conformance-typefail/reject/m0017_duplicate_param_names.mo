func add(x : Nat, x : Nat) : Nat { x };
add(1, 2)
