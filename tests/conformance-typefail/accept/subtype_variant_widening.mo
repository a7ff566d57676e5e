import Debug "mo:core/Debug";
type Small = { #a; #b : Nat };
type Big = { #a; #b : Nat; #c : Text };
func name(x : Big) : Text {
  switch x { case (#a) "a"; case (#b n) "b" # debug_show n; case (#c t) t }
};
let s : Small = #b 4;
let big : Big = s;
Debug.print(debug_show (name(s) # " " # name(big) # " " # name(#c "cee")))
