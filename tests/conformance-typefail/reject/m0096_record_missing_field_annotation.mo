type Account = { owner : Text; balance : Nat };
let partial = { owner = "bob" };
let acct : Account = partial;
acct.balance
