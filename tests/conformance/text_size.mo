import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show ("hello".size()));
Debug.print(debug_show ("".size()));
Debug.print(debug_show ("héllo".size()));
Debug.print(debug_show (Text.size("abc")));
