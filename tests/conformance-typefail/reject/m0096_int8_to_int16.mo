let a : Int8 = 5;
let b : Int16 = a;
b
