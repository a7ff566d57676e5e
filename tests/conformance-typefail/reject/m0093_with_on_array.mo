let xs = [1, 2];
let r = { xs with more = 1 };
r
