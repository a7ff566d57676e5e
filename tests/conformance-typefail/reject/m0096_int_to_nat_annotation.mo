let delta : Int = -3;
let count : Nat = delta;
count
