let n = 1;
let t = "2";
n + t
