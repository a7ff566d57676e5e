let name = "x";
let p : (Nat, Text) = (name, name);
p
