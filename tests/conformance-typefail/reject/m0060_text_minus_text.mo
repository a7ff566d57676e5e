let a = "abc";
let b = "b";
a - b
