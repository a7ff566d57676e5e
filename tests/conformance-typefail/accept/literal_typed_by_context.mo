import Debug "mo:core/Debug";
let small : Nat8 = 255;
let neg : Int8 = -128;
let f : Float = 3;
let big : Int = 10 ** 20;
Debug.print(debug_show (small, neg, f, big))
