let a = [1, 2, 3];
let b : [var Nat] = a;
b[0] := 5;
b[0]
