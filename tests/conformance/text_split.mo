import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
Debug.print(debug_show (Iter.toArray(Text.split("a,b,,c", #char ','))));
Debug.print(debug_show (Iter.toArray(Text.tokens("a,b,,c", #char ','))));
Debug.print(debug_show (Text.join(["x", "y", "z"].vals(), ", ")));
