let n : Nat = 1;
let f : Float = 2.0;
n + f
