type Shape = { #circle : { r : Nat } };
let s : Shape = #circle { r = 1 };
s.r
