func log(t : Text) { ignore t };
let n : Nat = log("x");
n
