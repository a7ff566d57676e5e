type Box<T> = { v : T };
let b : Box<Nat, Text> = { v = 1 };
b
