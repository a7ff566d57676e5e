let a = { name = "a"; x = 1 };
let b = { name = "b"; y = 2 };
let c = { a and b with x = 3 };
c
