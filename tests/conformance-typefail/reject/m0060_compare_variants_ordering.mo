type Level = { #low; #high };
let a : Level = #low;
let b : Level = #high;
a < b
