type Box<T> = { value : T };
let b : Box = { value = 1 };
b
