let xs : [Nat] = [1, 2, 3];
let t = "four";
let ys : [Nat] = [1, 2, t];
ys.size() + xs.size()
