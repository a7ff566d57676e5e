// Char: conversions and classification.
import Debug "mo:core/Debug";
import Char "mo:core/Char";
Debug.print(debug_show (Char.toNat32('a'), Char.fromNat32(66), Char.toText('z')));
Debug.print(debug_show (Char.isDigit('7'), Char.isDigit('x'), Char.isWhitespace(' '), Char.isWhitespace('_')));
var digits = 0;
for (c in "a1b22c333".chars()) { if (Char.isDigit c) digits += 1 };
Debug.print(debug_show digits);
