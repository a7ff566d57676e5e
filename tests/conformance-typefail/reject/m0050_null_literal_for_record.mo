type R = { a : Nat };
let r : R = null;
r
