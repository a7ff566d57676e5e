let base = { name = "a"; n = 1 };
let t = "two";
let r : { name : Text; n : Nat } = { base with n = t };
r
