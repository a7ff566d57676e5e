import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Char "mo:core/Char";
Debug.print(debug_show (Text.contains("abc1", #predicate(Char.isDigit)), Text.contains("abc", #predicate(Char.isDigit))));
