// Manual, "Text and characters": concatenation, size in characters, chars, comparisons.
import Debug "mo:core/Debug";
import Char "mo:core/Char";
let t = "héllo, wörld";
Debug.print(debug_show (t.size(), t # "!", "abc" < "abd", "b" > "abc", "x" == "x"));
var upper = 0;
for (c in "Hello World".chars()) { if (c >= 'A' and c <= 'Z') upper += 1 };
Debug.print(debug_show upper);
Debug.print(debug_show ('a' < 'b', 'é' > 'e', Char.toNat32 'A'));
