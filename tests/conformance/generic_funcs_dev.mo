// generic helper functions, called with explicit and inferred type arguments
import Debug "mo:core/Debug";

func mapOpt<A, B>(o : ?A, f : A -> B) : ?B { switch o { case (?a) ?f(a); case null null } };
func zip<A, B>(xs : [A], ys : [B]) : [(A, B)] {
  let n = if (xs.size() < ys.size()) xs.size() else ys.size();
  var out : [(A, B)] = [];
  var i = 0;
  while (i < n) { out := [(xs[i], ys[i])]; i += 1 };
  out
};
func count<A>(xs : [A], p : A -> Bool) : Nat { var c = 0; for (x in xs.vals()) { if (p(x)) c += 1 }; c };

Debug.print(debug_show mapOpt<Nat, Text>(?3, func n = debug_show n));
Debug.print(debug_show mapOpt(null : ?Nat, func(n : Nat) : Nat = n + 1));
Debug.print(debug_show zip<Nat, Char>([1, 2, 3], ['a', 'b']));
Debug.print(debug_show count<Text>(["a", "bb", "ccc"], func t = t.size() > 1));
