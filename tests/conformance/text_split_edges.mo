// Text.split of the empty text has no pieces; Text.replace with the empty pattern puts the
// replacement before every character and at the end.
import Debug "mo:core/Debug";
import Text "mo:core/Text";
import Iter "mo:core/Iter";
func sp(t : Text, p : Text.Pattern) : [Text] = Iter.toArray(Text.split(t, p));
func tk(t : Text, p : Text.Pattern) : [Text] = Iter.toArray(Text.tokens(t, p));
Debug.print(debug_show (sp("", #char ','), sp(",", #char ','), sp(",,", #char ','), sp("a", #char ','), sp("a,", #char ','), sp(",a", #char ',')));
Debug.print(debug_show (sp("", #text "ab"), sp("ab", #text "ab"), sp("xabyab", #text "ab"), sp("aab", #text "ab"), sp("abab", #text "ab"), sp("a", #text "ab")));
Debug.print(debug_show (sp("", #predicate(func c = c == 'x')), sp("x", #predicate(func c = c == 'x')), sp("axbx", #predicate(func c = c == 'x'))));
Debug.print(debug_show (tk("", #char ','), tk(",", #char ','), tk("a,,b", #char ','), tk(",a,", #char ',')));
Debug.print(debug_show (Text.contains("", #text ""), Text.startsWith("", #text ""), Text.endsWith("abc", #text ""), Text.replace("", #char 'a', "b")));
Debug.print(debug_show (Text.replace("", #text "", "-"), Text.replace("a", #text "", "-"), Text.replace("é😀", #text "", "<>"), Text.replace("abc", #text "", ""), Text.trim("", #char 'x'), Text.trim("xxx", #char 'x')));
