let a = { var count = 1; name = "a" };
let b = { a with name = "b" };
b
