let name = "alice";
let n : Nat = name;
n + 1
