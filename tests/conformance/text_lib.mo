import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show (Text.contains("hello", #text "ell")));
Debug.print(debug_show (Text.startsWith("hello", #text "he")));
Debug.print(debug_show (Text.endsWith("hello", #char 'o')));
Debug.print(debug_show (Text.replace("a-b-c", #char '-', "+")));
Debug.print(debug_show (Text.toUpper("abc")));
Debug.print(debug_show (Text.toLower("ABC")));
Debug.print(debug_show (Text.reverse("abc")));
