type Inner = { a : Nat; b : Nat };
type Outer = { inner : Inner; name : Text };
let o : Outer = { inner = { a = 1 }; name = "x" };
o
