let x : ?(Nat, Nat) = null;
type Pair<A, B> = (A, B);
let p : Pair<Nat> = (1, 2);
p
