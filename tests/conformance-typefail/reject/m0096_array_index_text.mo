let xs = [10, 20, 30];
let i = "1";
xs[i]
