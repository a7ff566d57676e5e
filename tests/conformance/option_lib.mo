import Debug "mo:core/Debug";
import Option "mo:core/Option";
Debug.print(debug_show (Option.get(?1, 0)));
Debug.print(debug_show (Option.get(null : ?Nat, 0)));
Debug.print(debug_show (Option.isSome(?1)));
Debug.print(debug_show (Option.isNull(?1)));
Debug.print(debug_show (Option.map(?2, func (x : Nat) : Nat { x * 10 })));
Debug.print(debug_show (Option.chain(?2, func (x : Nat) : ?Nat { if (x > 1) ?x else null })));
