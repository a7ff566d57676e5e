// generic helpers over Result, with explicit instantiation and annotated results
import Debug "mo:core/Debug";
import Result "mo:core/Result";
func collect<T, E>(rs : [Result.Result<T, E>]) : Result.Result<[T], E> {
  var out : [T] = [];
  for (r in rs.vals()) {
    switch r { case (#ok v) out := [v]; case (#err e) return #err e };
  };
  #ok out
};
func orElse<T, E>(r : Result.Result<T, E>, d : T) : T { switch r { case (#ok v) v; case (#err _) d } };
let good : [Result.Result<Int, Text>] = [#ok 1, #ok(-2)];
let bad : [Result.Result<Int, Text>] = [#ok 1, #err "boom", #err "later"];
Debug.print(debug_show (collect<Int, Text>(good), collect<Int, Text>(bad)));
Debug.print(debug_show (orElse<Int, Text>(#err "x", -1), orElse<Nat, Text>(#ok 4, 0)));
