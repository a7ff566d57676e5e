let t = "a";
let n = 1;
t < n
