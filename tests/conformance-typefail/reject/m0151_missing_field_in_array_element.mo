type P = { x : Nat; y : Nat };
let ps : [P] = [{ x = 1; y = 2 }, { x = 3 }];
ps.size()
