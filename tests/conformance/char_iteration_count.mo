import Debug "mo:core/Debug";
var vowels = 0;
for (c in "programming language".chars()) { switch c { case ('a' or 'e' or 'i' or 'o' or 'u') vowels += 1; case _ {} } };
Debug.print(debug_show vowels);
