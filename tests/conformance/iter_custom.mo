import Debug "mo:core/Debug";
func count(n : Nat) : { next : () -> ?Nat } { var i = 0; { next = func () : ?Nat { if (i < n) { i += 1; ?i } else null } } };
for (x in count(3)) { Debug.print(debug_show x) };
