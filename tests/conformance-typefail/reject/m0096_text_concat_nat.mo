let n = 42;
let t : Text = "n = " # n;
t
