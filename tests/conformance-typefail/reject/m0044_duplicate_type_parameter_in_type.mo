type Pair<A, A> = (A, A);
let p : Pair<Nat, Nat> = (1, 2);
p
