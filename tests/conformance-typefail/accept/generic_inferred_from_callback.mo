import Debug "mo:core/Debug";
import Array "mo:core/Array";
let words = ["a", "bb", "ccc"];
let sizes = Array.map(words, func (w : Text) : Nat { w.size() });
let total = Array.foldLeft(sizes, 0, func (acc : Nat, s : Nat) : Nat { acc + s });
Debug.print(debug_show (sizes, total))
