// switch on Text, Char and Nat literals, with fall-through to a wildcard.
import Debug "mo:core/Debug";
func kind(t : Text) : Nat { switch t { case "" 0; case "one" 1; case "two" 2; case _ 99 } };
Debug.print(debug_show (kind "", kind "one", kind "two", kind "three"));
func vowel(c : Char) : Bool { switch c { case ('a' or 'e' or 'i' or 'o' or 'u') true; case _ false } };
var n = 0;
for (c in "education".chars()) { if (vowel c) n += 1 };
Debug.print(debug_show n);
