import Debug "mo:core/Debug";
import Text "mo:core/Text";
Debug.print(debug_show ("é" > "z", "ab" < "abc", "B" < "a", Text.compare("日", "本")));
