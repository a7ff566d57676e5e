func first<T>(xs : [T]) : T { xs[0] };
let s = first<Nat>(["a", "b"]);
s
