import Debug "mo:core/Debug";
import Char "mo:core/Char";
Debug.print(debug_show (Char.toNat32('A')));
Debug.print(debug_show (Char.fromNat32(97)));
Debug.print(debug_show (Char.isDigit('7')));
Debug.print(debug_show (Char.isDigit('a')));
Debug.print(debug_show (Char.isWhitespace(' ')));
Debug.print(debug_show (Char.toText('z')));
Debug.print(debug_show ('a' < 'b'));
