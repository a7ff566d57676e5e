import Option "mo:core/Option";
let o : ?Nat = ?3;
let r : ?Text = Option.map<Nat, Nat>(o, func n = n + 1);
r
