import Debug "mo:core/Debug";
import Char "mo:core/Char";
Debug.print(debug_show (Char.fromNat32(0xD7FF), Char.fromNat32(0xE000)));
Debug.print(debug_show (Char.fromNat32(0xD800)));
