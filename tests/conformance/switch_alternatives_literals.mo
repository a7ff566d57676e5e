// `or` patterns over literals, options and variants inside tuples
import Debug "mo:core/Debug";
func kind(c : Char, n : ?Nat) : Text {
  switch (c, n) {
    case ('a' or 'e' or 'i' or 'o' or 'u', _) "vowel";
    case (_, ?0 or null) "none";
    case (_, ?(1 or 2)) "few";
    case _ "many";
  }
};
Debug.print(kind('e', ?5) # " " # kind('x', null) # " " # kind('x', ?0) # " " # kind('y', ?2) # " " # kind('z', ?9));
