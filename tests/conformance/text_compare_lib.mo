import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show (Text.compare("a", "b"), Text.equal("x", "x")));
