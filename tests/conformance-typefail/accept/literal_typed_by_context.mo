let small : Nat8 = 255;
let neg : Int8 = -128;
let f : Float = 3;
let big : Int = 10 ** 20;
debug_show (small, neg, f, big)
