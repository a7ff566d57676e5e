let config = { size = 3 };
let x : config.T = 1;
x
