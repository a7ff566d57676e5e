import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show (Text.fromChar('a')));
Debug.print(debug_show (Text.fromIter("abc".chars())));
Debug.print(debug_show (Text.fromArray(['x', 'y'])));
Debug.print(debug_show (Text.toArray("hi")));
