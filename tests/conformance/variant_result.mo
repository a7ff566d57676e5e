import Debug "mo:core/Debug";
type R = { #ok : Nat; #err : Text };
func div(a : Nat, b : Nat) : R { if (b == 0) #err "div by zero" else #ok (a / b) };
for (r in [div(6, 3), div(1, 0)].vals()) { switch r { case (#ok v) Debug.print("ok " # debug_show v); case (#err e) Debug.print("err " # e) } };
