// Text: size, contains, startsWith, endsWith, replace, split, join, trim.
import Debug "mo:core/Debug";
import Text "mo:core/Text";
let t = "  the quick brown fox  ";
Debug.print(debug_show (Text.size(t), Text.contains(t, #text "quick"), Text.startsWith(t, #text "  the")));
Debug.print(debug_show (Text.endsWith(t, #char ' '), Text.replace(t, #text "o", "0")));
Debug.print(debug_show (Text.trim(t, #char ' ')));
Debug.print(debug_show (Text.join(["a", "b", "c"].vals(), ",")));
for (w in Text.split("a,b,,c", #char ',')) { Debug.print(debug_show w) };
