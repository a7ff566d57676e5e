import Debug "mo:core/Debug";
import Char "mo:core/Char";
Debug.print(debug_show (Char.isAlphabetic('1')));
Debug.print(debug_show (Char.isAlphabetic('q')));
