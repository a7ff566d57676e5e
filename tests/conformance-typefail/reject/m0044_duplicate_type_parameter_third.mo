// M0044 is at the repeated parameter's name.
let x = 1;
type Pair<A, B, A> = (A, B);
