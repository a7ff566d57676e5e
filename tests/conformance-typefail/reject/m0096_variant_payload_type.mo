type Msg = { #count : Nat; #note : Text };
let n = 5;
let m : Msg = #note n;
m
