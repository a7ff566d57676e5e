import Debug "mo:core/Debug";
import Text "mo:core/Text";
var n = 0;
for (w in Text.tokens("the quick  brown fox", #char ' ')) { n += 1; Debug.print(w) };
Debug.print(debug_show n);
