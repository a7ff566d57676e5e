type Api = { get : () -> Nat; put : Nat -> (); get : () -> Nat };
let n = 1;
n
