func wrap<T>(x : T) : ?T { ?x };
let t = "a";
let r : ?Nat = wrap(t);
r
