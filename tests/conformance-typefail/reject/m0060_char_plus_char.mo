let a = 'a';
let b = 'b';
a + b
