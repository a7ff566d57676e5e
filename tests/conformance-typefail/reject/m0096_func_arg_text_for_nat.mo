func double(x : Nat) : Nat { x * 2 };
let word = "seven";
double(word)
