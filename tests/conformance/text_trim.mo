import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show (Text.trim("  hi  ", #char ' ')));
Debug.print(debug_show (Text.trim("xxhixx", #text "x")));
