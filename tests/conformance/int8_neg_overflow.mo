import Debug "mo:core/Debug";
let x : Int8 = -128;
ignore (-x);
