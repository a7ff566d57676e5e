import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show (Text.isEmpty("")));
Debug.print(debug_show (Text.isEmpty("a")));
Debug.print(debug_show (Text.concat("a", "b")));
