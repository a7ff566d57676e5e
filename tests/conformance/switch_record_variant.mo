import Debug "mo:core/Debug";
type Ev = { kind : { #add : Nat; #del }; who : Text };
func desc(e : Ev) : Text { switch e { case ({ kind = #add n; who }) who # " added " # debug_show n; case ({ kind = #del; who }) who # " deleted" } };
Debug.print(desc({ kind = #add 3; who = "al" }));
Debug.print(desc({ kind = #del; who = "bo" }));
