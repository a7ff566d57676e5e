func half(f : Float) : Float { f / 2.0 };
let n : Nat = 3;
half(n)
