let bytes : [Nat8] = [1, 2];
let b : Blob = bytes;
b
