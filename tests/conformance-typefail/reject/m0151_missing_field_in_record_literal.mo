type Account = { owner : Text; balance : Nat };
let a : Account = { owner = "x" };
a
