import Debug "mo:core/Debug";
let z : Int = 0;
ignore (10 / z);
