let n = 3;
let b = true;
n - b
