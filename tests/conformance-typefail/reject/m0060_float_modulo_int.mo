let f : Float = 5.5;
let i : Int = 2;
f % i
