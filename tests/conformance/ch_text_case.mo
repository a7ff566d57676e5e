// Text comparisons and concatenation in loops.
import Debug "mo:core/Debug";
import Text "mo:core/Text";
var s = "";
for (i in [1, 2, 3, 4].vals()) { s := s # debug_show i # (if (i < 4) "-" else "") };
Debug.print(s);
Debug.print(debug_show (Text.compare("a", "b"), Text.compare("b", "a"), Text.equal("x", "x")));
Debug.print(debug_show (Text.concat("ab", "cd"), Text.isEmpty(""), Text.isEmpty("a")));
