let n : Nat = 2;
let f : Float = 1.5;
f + n
