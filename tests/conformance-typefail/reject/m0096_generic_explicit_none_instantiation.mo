func pick<T>(a : T, b : T) : T { a };
let x : Nat = pick<Text>("a", "b");
x
