let a = true;
let b = false;
a < b
