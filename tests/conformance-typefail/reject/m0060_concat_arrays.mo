let a = [1, 2];
let b = [3];
a # b
