import Array "mo:core/Array";
func compare(a : Text, b : Text) : Bool { a < b };
type Pair = (Nat, Nat);
let ps : [Pair] = [(2, 1), (1, 2)];
Array.sort(ps)
