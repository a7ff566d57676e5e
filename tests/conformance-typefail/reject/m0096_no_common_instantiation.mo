func same<T>(a : T, b : T) : [T] { [a, b] };
let xs : [Nat] = same(1, "one");
xs
