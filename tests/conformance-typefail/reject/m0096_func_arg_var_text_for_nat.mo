func double(x : Nat) : Nat { x * 2 };
let arg = "seven";
double(arg)
