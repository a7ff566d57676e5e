// Option: get, map, isSome, isNull, chain, unwrap.
import Debug "mo:core/Debug";
import Option "mo:core/Option";
let a : ?Nat = ?4;
let b : ?Nat = null;
Debug.print(debug_show (Option.get(a, 0), Option.get(b, 0)));
Debug.print(debug_show (Option.map<Nat, Nat>(a, func x = x * 2), Option.map<Nat, Nat>(b, func x = x * 2)));
Debug.print(debug_show (Option.isSome(a), Option.isNull(b)));
Debug.print(debug_show (Option.chain<Nat, Text>(a, func x = if (x > 3) ?"big" else null)));
Debug.print(debug_show (Option.unwrap(a)));
