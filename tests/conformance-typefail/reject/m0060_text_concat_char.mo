let t = "ab";
let c = 'c';
t # c
